"""``x op= v`` inside converted code (passes/augmented.py): Python's in-place update eagerly, a new
value for a tensor while exporting (the converted code may hold the old value under another name;
a graph op's body may not mutate its inputs)."""

from __future__ import annotations

import operator

import torch

from deploy.rewriters.values import is_tracing

_IN_PLACE = {
    "+": operator.iadd,
    "-": operator.isub,
    "*": operator.imul,
    "/": operator.itruediv,
    "//": operator.ifloordiv,
    "%": operator.imod,
    "**": operator.ipow,
    "@": operator.imatmul,
    "&": operator.iand,
    "|": operator.ior,
    "^": operator.ixor,
    "<<": operator.ilshift,
    ">>": operator.irshift,
}
_NEW = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "/": operator.truediv,
    "//": operator.floordiv,
    "%": operator.mod,
    "**": operator.pow,
    "@": operator.matmul,
    "&": operator.and_,
    "|": operator.or_,
    "^": operator.xor,
    "<<": operator.lshift,
    ">>": operator.rshift,
}


def augmented(target: object, symbol: str, value: object) -> object:
    """``target <symbol>= value``; returns the target's new value."""
    if is_tracing() and isinstance(target, torch.Tensor):
        return _NEW[symbol](target, value)
    return _IN_PLACE[symbol](target, value)
