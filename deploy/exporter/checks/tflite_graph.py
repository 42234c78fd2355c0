"""Read a .tflite flatbuffer's operators (op name, tensors) and map each back to the user's source.

deploy's TFLite lowering names each tensor after the ONNX value it computes, so an operator's
source line is that of the ONNX node producing its output; operators a lowering adds in between
(an expansion of Erf, a layout transpose) take the line of the first named tensor downstream.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from ai_edge_litert import schema_py_generated as schema

_OP_NAMES = {v: k for k, v in vars(schema.BuiltinOperator).items() if not k.startswith("_")}
_TYPE_NAMES = {v: k for k, v in vars(schema.TensorType).items() if not k.startswith("_")}


@dataclass
class TfliteOp:
    """One operator of one subgraph, with its input/output tensor indices."""

    subgraph: int
    index: int
    name: str  # builtin name ('CONV_2D') or 'CUSTOM:<name>'
    inputs: list[int]
    outputs: list[int]


@dataclass
class TfliteGraph:
    ops: list[TfliteOp]
    tensor_names: list[list[str]]  # per subgraph
    tensor_types: list[list[str]]  # per subgraph, e.g. 'FLOAT32'
    constant: list[list[bool]]  # per subgraph: has data in a buffer
    tensor_shapes: list[list[list[int]]]  # per subgraph


def read_graph(data: bytes) -> TfliteGraph:
    model = schema.Model.GetRootAs(data, 0)
    codes = []
    for i in range(model.OperatorCodesLength()):
        code = model.OperatorCodes(i)
        builtin = max(code.BuiltinCode(), code.DeprecatedBuiltinCode())
        name = _OP_NAMES.get(builtin, str(builtin))
        if builtin == schema.BuiltinOperator.CUSTOM:
            name = f"CUSTOM:{(code.CustomCode() or b'').decode()}"
        codes.append(name)
    ops, names, types, constant, shapes = [], [], [], [], []
    for s in range(model.SubgraphsLength()):
        sg = model.Subgraphs(s)
        tensors = [sg.Tensors(t) for t in range(sg.TensorsLength())]
        names.append([(t.Name() or b"").decode() for t in tensors])
        types.append([_TYPE_NAMES.get(t.Type(), str(t.Type())) for t in tensors])
        shapes.append([list(t.ShapeAsNumpy()) if t.ShapeLength() else [] for t in tensors])
        buffers = [t.Buffer() for t in tensors]
        constant.append([b > 0 and model.Buffers(b).DataLength() > 0 for b in buffers])
        for o in range(sg.OperatorsLength()):
            op = sg.Operators(o)
            ops.append(
                TfliteOp(s, o, codes[op.OpcodeIndex()], list(op.InputsAsNumpy() if op.InputsLength() else []),
                         list(op.OutputsAsNumpy() if op.OutputsLength() else []))
            )  # fmt: skip
    return TfliteGraph(ops, names, types, constant, shapes)


def op_sources(
    graph: TfliteGraph, sources: dict[str, tuple[str, int]]
) -> dict[tuple[int, int], tuple[str, int]]:
    """(subgraph, op index) -> the user's (file, line), via tensor names equal to ONNX value names."""
    consumers: dict[tuple[int, int], list[TfliteOp]] = {}
    for op in graph.ops:
        for t in op.inputs:
            consumers.setdefault((op.subgraph, int(t)), []).append(op)
    found = {}
    for op in graph.ops:
        queue, seen = deque([op]), set()
        while queue and (op.subgraph, op.index) not in found:
            current = queue.popleft()
            if current.index in seen:
                continue
            seen.add(current.index)
            for t in current.outputs:
                where = sources.get(graph.tensor_names[op.subgraph][int(t)])
                if where:
                    found[(op.subgraph, op.index)] = where
                    break
                queue.extend(consumers.get((op.subgraph, int(t)), []))
    return found
