"""Test-only builders: tiny .tflite flatbuffers (ai_edge_litert.schema_py_generated + flatbuffers)
and tiny .onnx graphs (onnx.helper), so that check-ops is tested on artifacts given directly."""

from __future__ import annotations

from pathlib import Path

import flatbuffers
from ai_edge_litert import schema_py_generated as schema


def write_tflite(path: Path, ops: list[str], shape=(1, 8, 8, 4)) -> Path:
    """A chain x -> ops[0] -> ops[1] -> ... of one-input float32 ops ('CUSTOM:Name' for a custom op)."""
    buffers = [schema.BufferT()]
    tensors, operators, codes = [], [], []

    def tensor(name: str) -> int:
        buffers.append(schema.BufferT())
        t = schema.TensorT()
        t.name, t.shape, t.type, t.buffer = name, list(shape), schema.TensorType.FLOAT32, len(buffers) - 1
        tensors.append(t)
        return len(tensors) - 1

    current = tensor("x")
    for i, name in enumerate(ops):
        code = schema.OperatorCodeT()
        if name.startswith("CUSTOM:"):
            code.builtinCode = code.deprecatedBuiltinCode = schema.BuiltinOperator.CUSTOM
            code.customCode = name[len("CUSTOM:") :]
        else:
            code.builtinCode = getattr(schema.BuiltinOperator, name)
            code.deprecatedBuiltinCode = min(code.builtinCode, 127)
        code.version = 1
        codes.append(code)
        out = tensor(f"y{i}")
        op = schema.OperatorT()
        op.opcodeIndex, op.inputs, op.outputs = len(codes) - 1, [current], [out]
        operators.append(op)
        current = out
    subgraph = schema.SubGraphT()
    subgraph.tensors, subgraph.inputs, subgraph.outputs = tensors, [0], [current]
    subgraph.operators, subgraph.name = operators, "main"
    model = schema.ModelT()
    model.version, model.operatorCodes, model.subgraphs, model.buffers = 3, codes, [subgraph], buffers
    builder = flatbuffers.Builder(1024)
    builder.Finish(model.Pack(builder), file_identifier=b"TFL3")
    Path(path).write_bytes(bytes(builder.Output()))
    return Path(path)


def write_onnx(path: Path, ops: list[str], shape=(1, 4, 8, 8)) -> Path:
    """A chain of one-input ONNX ops on a fixed-shape float input (no source metadata)."""
    import onnx
    from onnx import TensorProto, helper

    nodes, current = [], "x"
    for i, op in enumerate(ops):
        nodes.append(helper.make_node(op, [current], [f"y{i}"], name=f"n{i}"))
        current = f"y{i}"
    graph = helper.make_graph(
        nodes,
        "chain",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(shape))],
        [helper.make_tensor_value_info(current, TensorProto.FLOAT, list(shape))],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, str(path))
    return Path(path)


__all__ = ["write_tflite", "write_onnx"]
