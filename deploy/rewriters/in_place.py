"""``x op= v`` inside converted code (passes/augmented.py): Python's in-place update eagerly, a new
value for a tensor while exporting (the converted code may hold the old value under another name;
a graph op's body may not mutate its inputs)."""

from __future__ import annotations

import operator

import torch

from deploy.rewriters.values import is_tracing

# an augmented assignment's operator (its ast class name) -> the operator module's function name
# (the in-place one is the same name with an ``i`` in front: ``iadd``, ``iand``)
OPERATORS = {
    "Add": "add",
    "Sub": "sub",
    "Mult": "mul",
    "Div": "truediv",
    "FloorDiv": "floordiv",
    "Mod": "mod",
    "Pow": "pow",
    "MatMult": "matmul",
    "BitAnd": "and_",
    "BitOr": "or_",
    "BitXor": "xor",
    "LShift": "lshift",
    "RShift": "rshift",
}


def augmented(target: object, op: str, value: object) -> object:
    """``target <op>= value`` (``op`` a key of OPERATORS); returns the target's new value."""
    function = OPERATORS[op]
    if is_tracing() and isinstance(target, torch.Tensor):
        return getattr(operator, function)(target, value)
    return getattr(operator, "i" + function.rstrip("_"))(target, value)
