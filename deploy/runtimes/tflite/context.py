"""The lowering context of one subgraph: values by ONNX name, tensors, and emit helpers.

Lowerings ask it for an input's tensor in the layout they want (``tensor(value, perm)``);
it writes a constant in that layout, or inserts one TRANSPOSE (a RESHAPE when only unit
dims move) and caches it, so a chain of NHWC operators pays for the layout change once.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import onnx_ir as ir
from ai_edge_litert import schema_py_generated as schema

from deploy.runtimes.tflite.builder import OPS, ModelBuilder, Subgraph
from deploy.runtimes.tflite.values import (
    Shape,
    Unsupported,
    Value,
    is_identity,
    only_moves_unit_dims,
    permute,
    relayout,
)


def ir_shape(value: ir.Value) -> Shape | None:
    """An onnx-ir value's shape with None for symbolic or unknown dims (None if rank unknown)."""
    if value.shape is None:
        return None
    return tuple(d if isinstance(d, int) else None for d in value.shape)


def ir_dtype(value: ir.Value) -> np.dtype:
    if value.dtype is None:
        return np.dtype("float32")
    try:
        return np.dtype(value.dtype.numpy())
    except Exception as exc:  # bfloat16, float8, strings: not representable here
        raise Unsupported(f"dtype {value.dtype} is not supported") from exc


class LoweringContext:
    """State for lowering one ONNX graph into one TFLite subgraph."""

    def __init__(self, model: ModelBuilder, subgraph: Subgraph, index: int, options: dict):
        self.model = model
        self.sg = subgraph
        self.index = index
        self.options = options
        self.values: dict[ir.Value, Value] = {}
        self._layout_cache: dict[tuple[int, tuple | None, tuple | None], int] = {}
        self._const_cache: dict[tuple[int, tuple | None], int] = {}
        self._alive: list[Value] = []
        self._counter = 0

    # -- values ---------------------------------------------------------------------------
    def name(self, hint: str) -> str:
        self._counter += 1
        return f"{hint}_{self._counter}"

    def get(self, value: ir.Value | None) -> Value | None:
        if value is None or value.name == "" and value not in self.values:
            return None
        if value not in self.values:
            raise Unsupported(f"input {value.name!r} is not available in this subgraph")
        return self.values[value]

    def input(self, node: ir.Node, i: int) -> Value | None:
        """The i-th input of ``node`` (None when omitted)."""
        if i >= len(node.inputs):
            return None
        return self.get(node.inputs[i])

    def const(self, array, dtype: str | np.dtype | None = None, name: str = "const") -> Value:
        data = np.asarray(array, dtype=dtype)
        return Value(self.name(name), tuple(data.shape), data.dtype, const=data)

    # -- tensors --------------------------------------------------------------------------
    def tensor(self, value: Value, perm: tuple[int, ...] | None = None) -> int:
        """The index of ``value``'s tensor in layout ``perm`` (None = ONNX order)."""
        if perm is not None and is_identity(perm):
            perm = None
        if value.const is not None:
            key = (id(value), perm)
            if key not in self._const_cache:
                self._alive.append(value)  # id() stays unique while the value is alive
                data = value.const if perm is None else np.transpose(value.const, perm)
                data = np.asarray(data, order="C")
                self._const_cache[key] = self.sg.add_tensor(value.name, data.shape, data.dtype, data=data)
            return self._const_cache[key]
        current = None if value.perm is None or is_identity(value.perm) else value.perm
        if current == perm:
            return value.tensor
        # the tensor's own layout is part of the key: two Transposes of one tensor (``movedim(1, 0)``
        # and ``movedim(2, 0)``) share its tensor, and each asks for it in ONNX order
        key = (value.tensor, current, perm)
        if key not in self._layout_cache:
            rank = len(value.shape)
            move = relayout(current, perm, rank)
            out_shape = permute(value.shape, perm)
            if only_moves_unit_dims(value.tflite_shape, move):
                self._layout_cache[key] = self.reshape_tensor(value.tensor, out_shape, value.dtype)
            else:
                out = self.sg.add_tensor(self.name(value.name + "_t"), out_shape, value.dtype)
                self.sg.add_op(OPS.TRANSPOSE, [value.tensor, self.int32_tensor(move)], [out])
                self._layout_cache[key] = out
        return self._layout_cache[key]

    def native(self, value: Value) -> int:
        return self.tensor(value, None)

    def int32_tensor(self, values: Sequence[int] | np.ndarray) -> int:
        return self.tensor(self.const(np.asarray(values, dtype=np.int32), name="ints"))

    def new_tensor(self, shape: Shape | None, dtype, perm=None, name: str = "t") -> int:
        return self.sg.add_tensor(self.name(name), permute(shape, perm), np.dtype(dtype))

    def emit(
        self,
        code: int,
        inputs: Sequence[int],
        shape: Shape | None,
        dtype,
        *,
        perm: tuple[int, ...] | None = None,
        options=None,
        options2=None,
        name: str = "t",
    ) -> Value:
        """Add one operator with one output of ONNX ``shape`` stored in layout ``perm``."""
        if perm is not None and is_identity(perm):
            perm = None
        out = self.new_tensor(shape, dtype, perm, name)
        self.sg.add_op(code, list(inputs), [out], options, options2)
        return Value(self.sg.tensors[out].name, shape, np.dtype(dtype), tensor=out, perm=perm)

    def emit_multi(
        self, code, inputs, outputs: Sequence[tuple[Shape | None, object]], *, perm=None, options=None
    ):
        perm = None if perm is not None and is_identity(perm) else perm
        tensors = [self.new_tensor(shape, dtype, perm) for shape, dtype in outputs]
        self.sg.add_op(code, list(inputs), tensors, options)
        return [
            Value(self.sg.tensors[t].name, shape, np.dtype(dtype), tensor=t, perm=perm)
            for t, (shape, dtype) in zip(tensors, outputs)
        ]

    # -- common operators -----------------------------------------------------------------
    def reshape_tensor(self, tensor: int, shape: Shape, dtype) -> int:
        """RESHAPE ``tensor`` to ``shape`` (at most one None dim, which becomes -1)."""
        target = [-1 if d is None else int(d) for d in shape]
        if target.count(-1) > 1:
            raise Unsupported("reshape with more than one dynamic dim")
        options = schema.ReshapeOptionsT()
        options.newShape = target
        out = self.sg.add_tensor(self.name("reshape"), shape, dtype)
        self.sg.add_op(OPS.RESHAPE, [tensor, self.int32_tensor(target)], [out], options)
        return out

    def reshape(self, value: Value, shape: Shape) -> Value:
        if value.const is not None:
            return self.const(value.const.reshape([-1 if d is None else d for d in shape]))
        out = self.reshape_tensor(self.native(value), shape, value.dtype)
        return Value(self.sg.tensors[out].name, tuple(shape), value.dtype, tensor=out)

    def cast(self, value: Value, dtype) -> Value:
        dtype = np.dtype(dtype)
        if value.dtype == dtype:
            return value
        if value.const is not None:
            return self.const(value.const.astype(dtype))
        options = schema.CastOptionsT()
        cast = self.emit(
            OPS.CAST, [self.tensor(value, value.perm)], value.shape, dtype, perm=value.perm, options=options
        )
        cast.bounded = value.bounded and np.issubdtype(dtype, np.integer)
        return cast

    def shape_of(self, value: Value, dtype="int64") -> Value:
        """The ONNX shape of ``value`` as a 1-D tensor (constant when static)."""
        if value.static:
            return self.const(np.array(value.shape, dtype=dtype))
        if value.shape is None:
            raise Unsupported("shape of a tensor of unknown rank")
        options = schema.ShapeOptionsT()
        options.outType = schema.TensorType.INT64 if np.dtype(dtype) == np.int64 else schema.TensorType.INT32
        shape = self.emit(OPS.SHAPE, [self.native(value)], (len(value.shape),), dtype, options=options)
        shape.bounded = True
        return shape

    def identity(self, value: Value) -> int:
        """A fresh tensor equal to ``value`` in ONNX order (for subgraph outputs)."""
        if value.const is None and value.static:
            return self.reshape_tensor(self.native(value), value.shape, value.dtype)
        if value.const is not None:
            return self.reshape_tensor(self.native(value), value.shape, value.dtype)
        shape = self.shape_of(value, "int32")
        out = self.new_tensor(value.shape, value.dtype, name="copy")
        self.sg.add_op(OPS.RESHAPE, [self.native(value), self.native(shape)], [out], schema.ReshapeOptionsT())
        return out
