"""A small writer for the LiteRT flatbuffer: tensors, buffers, operators and subgraphs.

It holds the model as plain Python records while lowering (so that the peephole passes in
``fuse.py`` can rewrite operators), then packs it with the object API of the official schema
module ``ai_edge_litert.schema_py_generated``. Constant data is 16-byte aligned, as the
kernels (XNNPACK's in particular) expect.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import flatbuffers
import numpy as np
from ai_edge_litert import schema_py_generated as schema

# numpy dtype -> TFLite TensorType
TENSOR_TYPES = {
    np.dtype("float32"): schema.TensorType.FLOAT32,
    np.dtype("float16"): schema.TensorType.FLOAT16,
    np.dtype("float64"): schema.TensorType.FLOAT64,
    np.dtype("int32"): schema.TensorType.INT32,
    np.dtype("int64"): schema.TensorType.INT64,
    np.dtype("int16"): schema.TensorType.INT16,
    np.dtype("int8"): schema.TensorType.INT8,
    np.dtype("uint8"): schema.TensorType.UINT8,
    np.dtype("uint32"): schema.TensorType.UINT32,
    np.dtype("bool"): schema.TensorType.BOOL,
}

OPS = schema.BuiltinOperator
# Operator versions above 1 where the runtime registers nothing at version 1.
VERSIONS = {OPS.BROADCAST_TO: 2}
_OP_NAMES = {v: k for k, v in vars(OPS).items() if not k.startswith("_")}


def op_name(code: int) -> str:
    """The TFLite builtin operator name of ``code`` (e.g. 'CONV_2D')."""
    return _OP_NAMES.get(code, str(code))


@dataclass
class Tensor:
    """One TFLite tensor: shape uses 1 where shape_signature has -1 (a dynamic dim)."""

    name: str
    shape: tuple[int, ...] | None
    dtype: np.dtype
    signature: tuple[int, ...] | None = None
    buffer: int = 0
    data: np.ndarray | None = None


@dataclass
class Operator:
    """One operator: inputs/outputs are tensor indices (-1 for an omitted optional input)."""

    code: int
    inputs: list[int]
    outputs: list[int]
    options: object | None = None
    options2: object | None = None


@dataclass
class Subgraph:
    name: str
    tensors: list[Tensor] = field(default_factory=list)
    operators: list[Operator] = field(default_factory=list)
    inputs: list[int] = field(default_factory=list)
    outputs: list[int] = field(default_factory=list)

    def add_tensor(
        self,
        name: str,
        shape: tuple[int | None, ...] | None,
        dtype: np.dtype | str,
        data: np.ndarray | None = None,
    ) -> int:
        """Add a tensor; None dims in ``shape`` become -1 in shape_signature."""
        if shape is not None:
            shape = tuple(shape)
            if any(d is None or d < 0 for d in shape):
                signature = tuple(-1 if d is None or d < 0 else int(d) for d in shape)
                static = tuple(1 if d < 0 else d for d in signature)
            else:
                signature, static = None, tuple(int(d) for d in shape)
        else:
            signature, static = None, None
        self.tensors.append(Tensor(f"{name}", static, np.dtype(dtype), signature, data=data))
        return len(self.tensors) - 1

    def add_op(
        self, code: int, inputs: list[int], outputs: list[int], options=None, options2=None
    ) -> Operator:
        op = Operator(code, list(inputs), list(outputs), options, options2)
        self.operators.append(op)
        return op


def _options_type(options: object, union: type) -> int:
    name = type(options).__name__[:-1]  # Conv2DOptionsT -> Conv2DOptions
    return getattr(union, name)


class _AlignedBufferT(schema.BufferT):
    """A BufferT whose data vector starts on a 16-byte boundary."""

    def Pack(self, builder: flatbuffers.Builder) -> int:
        data = None
        if self.data is not None:
            payload = self.data.tobytes()
            builder.StartVector(1, len(payload), 16)
            builder.head = builder.head - len(payload)
            builder.Bytes[builder.head : builder.head + len(payload)] = payload
            data = builder.EndVector()
        schema.BufferStart(builder)
        if data is not None:
            schema.BufferAddData(builder, data)
        return schema.BufferEnd(builder)


class ModelBuilder:
    """Collects subgraphs and operator codes; ``serialize`` returns the .tflite bytes."""

    def __init__(self, description: str = "deploy"):
        self.description = description
        self.subgraphs: list[Subgraph] = []

    def new_subgraph(self, name: str) -> tuple[int, Subgraph]:
        self.subgraphs.append(Subgraph(name))
        return len(self.subgraphs) - 1, self.subgraphs[-1]

    def serialize(self) -> bytes:
        model = schema.ModelT()
        model.version = 3
        model.description = self.description
        empty = schema.BufferT()
        model.buffers = [empty]
        codes: dict[int, int] = {}
        model.operatorCodes = []
        model.subgraphs = [self._pack_subgraph(sg, model, codes) for sg in self.subgraphs]
        builder = flatbuffers.Builder(1024)
        builder.Finish(model.Pack(builder), file_identifier=b"TFL3")
        return bytes(builder.Output())

    def _pack_subgraph(self, sg: Subgraph, model: schema.ModelT, codes: dict[int, int]) -> schema.SubGraphT:
        used = set(sg.inputs) | set(sg.outputs)
        for op in sg.operators:
            used.update(i for i in op.inputs if i >= 0)
            used.update(op.outputs)
        remap = {old: new for new, old in enumerate(sorted(used))}
        out = schema.SubGraphT()
        out.name = sg.name
        out.tensors = []
        for old in sorted(used):
            out.tensors.append(self._pack_tensor(sg.tensors[old], model))
        out.inputs = [remap[i] for i in sg.inputs]
        out.outputs = [remap[i] for i in sg.outputs]
        out.operators = []
        for op in sg.operators:
            packed = schema.OperatorT()
            if op.code not in codes:
                code = schema.OperatorCodeT()
                code.builtinCode = op.code
                code.deprecatedBuiltinCode = min(op.code, OPS.PLACEHOLDER_FOR_GREATER_OP_CODES)
                code.version = VERSIONS.get(op.code, 1)
                codes[op.code] = len(model.operatorCodes)
                model.operatorCodes.append(code)
            packed.opcodeIndex = codes[op.code]
            packed.inputs = [remap[i] if i >= 0 else -1 for i in op.inputs]
            packed.outputs = [remap[i] for i in op.outputs]
            if op.options is not None:
                packed.builtinOptionsType = _options_type(op.options, schema.BuiltinOptions)
                packed.builtinOptions = op.options
            if op.options2 is not None:
                packed.builtinOptions2Type = _options_type(op.options2, schema.BuiltinOptions2)
                packed.builtinOptions2 = op.options2
            out.operators.append(packed)
        return out

    def _pack_tensor(self, tensor: Tensor, model: schema.ModelT) -> schema.TensorT:
        packed = schema.TensorT()
        packed.name = tensor.name
        packed.type = TENSOR_TYPES[tensor.dtype]
        if tensor.shape is not None:
            packed.shape = list(tensor.shape)
            packed.hasRank = True
            if tensor.signature is not None:
                packed.shapeSignature = list(tensor.signature)
        packed.buffer = 0
        if tensor.data is not None:
            buffer = _AlignedBufferT()
            buffer.data = np.asarray(tensor.data, order="C").reshape(-1).view(np.uint8)
            model.buffers.append(buffer)
            packed.buffer = len(model.buffers) - 1
        return packed
