"""Values of the graph being lowered: an ONNX shape and dtype, a TFLite tensor, and a layout.

Layout is explicit data: ``perm`` says how the TFLite tensor is laid out relative to the
ONNX tensor it stands for (``tflite = onnx.transpose(perm)``; None means the ONNX order).
NHWC for a rank-4 NCHW tensor is ``(0, 2, 3, 1)``. Constants stay numpy arrays until an
operator needs them, so that they are written once, in the layout that operator wants.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

Shape = tuple[int | None, ...]


def channels_last(rank: int) -> tuple[int, ...]:
    """The channels-last permutation of a rank-``rank`` channels-first tensor (NCHW -> NHWC)."""
    return (0, *range(2, rank), 1)


def permute(shape: Shape | None, perm: tuple[int, ...] | None) -> Shape | None:
    """The shape of a tensor of ONNX ``shape`` stored in layout ``perm``."""
    if shape is None or perm is None:
        return shape
    return tuple(shape[p] for p in perm)


def axis_in(perm: tuple[int, ...] | None, axis: int) -> int:
    """The TFLite axis that holds ONNX axis ``axis`` (non-negative) under layout ``perm``."""
    return axis if perm is None else perm.index(axis)


def relayout(src: tuple[int, ...] | None, dst: tuple[int, ...] | None, rank: int) -> tuple[int, ...]:
    """The TRANSPOSE permutation that turns a tensor in layout ``src`` into layout ``dst``."""
    src = src or tuple(range(rank))
    dst = dst or tuple(range(rank))
    return tuple(src.index(d) for d in dst)


def is_identity(perm: tuple[int, ...] | None) -> bool:
    return perm is None or tuple(perm) == tuple(range(len(perm)))


def only_moves_unit_dims(shape: Shape | None, perm: tuple[int, ...]) -> bool:
    """True when transposing ``shape`` by ``perm`` keeps the order of all non-1 dims (a reshape).

    A dynamic dim counts as non-1; at most one may be dynamic (it becomes RESHAPE's -1).
    """
    if shape is None or sum(d is None for d in shape) > 1:
        return False
    moved = [p for p in perm if shape[p] != 1]
    return moved == sorted(moved)


@dataclass
class Value:
    """One ONNX value as lowered: its tensor (None until a constant is materialized)."""

    name: str
    shape: Shape | None
    dtype: np.dtype
    tensor: int | None = None
    perm: tuple[int, ...] | None = None
    const: np.ndarray | None = None
    bounded: bool = False  # integer values known to lie in [0, 2^31): dims read from a shape
    nonnegative: bool = False  # known >= 0 (after RELU, sigmoid, ...): max-pool pads may then be zeros

    @property
    def rank(self) -> int | None:
        return None if self.shape is None else len(self.shape)

    @property
    def static(self) -> bool:
        return self.shape is not None and all(d is not None for d in self.shape)

    @property
    def tflite_shape(self) -> Shape | None:
        return permute(self.shape, self.perm)


def ints(value: Value, what: str) -> list[int]:
    """The integer contents of a constant value (e.g. a shape or axes input)."""
    if value.const is None:
        raise NotConstant(f"{what} must be a constant")
    return [int(v) for v in np.asarray(value.const).reshape(-1)]


class NotConstant(Exception):
    """A lowering needs an input to be constant and it is computed at run time."""


class Unsupported(Exception):
    """A lowering cannot handle this node (an attribute, a dtype, a rank); the message says why."""
