"""Small models written directly for device tests (no exporter, no downloads): an ONNX conv net and a
one-op TFLite fully-connected model built with the LiteRT flatbuffer schema."""

from __future__ import annotations

from pathlib import Path

import numpy as np


def write_onnx(path: Path, *, channels: int = 16, size: int = 32) -> Path:
    """Conv3x3 -> Relu -> GlobalAveragePool -> Flatten -> Gemm(10), input x: [N, 3, size, size]."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(0)
    weights = [
        numpy_helper.from_array(rng.standard_normal((channels, 3, 3, 3)).astype(np.float32), "w"),
        numpy_helper.from_array(rng.standard_normal((10, channels)).astype(np.float32), "w2"),
    ]
    nodes = [
        helper.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c"], ["r"]),
        helper.make_node("GlobalAveragePool", ["r"], ["g"]),
        helper.make_node("Flatten", ["g"], ["f"]),
        helper.make_node("Gemm", ["f", "w2"], ["y"], transB=1),
    ]
    graph = helper.make_graph(
        nodes,
        "tiny_conv",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3, size, size])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 10])],
        weights,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, str(path))
    return Path(path)


def write_tflite(path: Path, *, features: int = 1024, units: int = 512) -> Path:
    """FULLY_CONNECTED with a fused ReLU: x [1, features] -> y [1, units]."""
    import flatbuffers
    from ai_edge_litert import schema_py_generated as schema

    rng = np.random.default_rng(0)
    blobs = [b"", b"", rng.standard_normal((units, features)).astype(np.float32).tobytes(), b"", b""]
    blobs[3] = rng.standard_normal(units).astype(np.float32).tobytes()
    buffers = []
    for blob in blobs:
        buffer = schema.BufferT()
        buffer.data = list(blob) if blob else None
        buffers.append(buffer)

    def tensor(name: str, shape: list[int], buffer: int):
        t = schema.TensorT()
        t.name, t.shape, t.type, t.buffer = name, shape, schema.TensorType.FLOAT32, buffer
        return t

    options = schema.FullyConnectedOptionsT()
    options.fusedActivationFunction = schema.ActivationFunctionType.RELU
    op = schema.OperatorT()
    op.opcodeIndex, op.inputs, op.outputs = 0, [0, 1, 2], [3]
    op.builtinOptionsType, op.builtinOptions = schema.BuiltinOptions.FullyConnectedOptions, options
    subgraph = schema.SubGraphT()
    subgraph.tensors = [
        tensor("x", [1, features], 1),
        tensor("w", [units, features], 2),
        tensor("b", [units], 3),
        tensor("y", [1, units], 4),
    ]
    subgraph.inputs, subgraph.outputs, subgraph.operators, subgraph.name = [0], [3], [op], "main"
    code = schema.OperatorCodeT()
    code.builtinCode = code.deprecatedBuiltinCode = schema.BuiltinOperator.FULLY_CONNECTED
    code.version = 1
    model = schema.ModelT()
    model.version, model.operatorCodes, model.subgraphs, model.buffers = 3, [code], [subgraph], buffers
    model.description = "deploy test model"
    builder = flatbuffers.Builder(1024)
    builder.Finish(model.Pack(builder), file_identifier=b"TFL3")
    Path(path).write_bytes(bytes(builder.Output()))
    return Path(path)
