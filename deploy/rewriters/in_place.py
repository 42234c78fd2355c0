"""``x op= v`` and ``x.add_(v)`` (any in-place method called as a statement) inside converted code
(passes/augmented.py): Python's in-place update eagerly, a new value for a tensor while exporting
(the converted code may hold the old value under another name; a graph op's body may not mutate
its inputs)."""

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


def _filled(target: torch.Tensor, value: object, non_blocking: bool = False) -> torch.Tensor:
    if isinstance(value, torch.Tensor):
        return value.to(target.dtype).expand_as(target)
    return torch.full_like(target, value)  # no constant tensor: a graph op's body cannot lift one


_FILLS = {  # in-place methods whose out-of-place counterpart is not the name without its ``_``
    "zero_": torch.zeros_like,
    "fill_": _filled,
    "copy_": _filled,
}


# random fills, and methods that change the target's shape or metadata: as Python does
_KEPT = {
    *("random", "uniform", "normal", "bernoulli", "exponential", "geometric", "cauchy", "log_normal"),
    *("squeeze", "unsqueeze", "t", "transpose", "swapaxes", "swapdims", "resize", "resize_as"),
    *("as_strided", "set", "share_memory", "requires_grad", "retain_grad", "detach"),
}


def in_place_method(target: object, method: str, *args, **kwargs) -> object:
    """``target.method(*args)`` for an in-place ``method`` (``add_``, ``zero_``, ``masked_fill_``);
    returns the target's new value. Eagerly the method itself; while exporting, for a tensor, its
    out-of-place counterpart in the target's dtype and shape (a graph op's body may not mutate
    its inputs, and torch.onnx cannot translate a mutation left in one). A method without such a
    counterpart (``uniform_``) mutates as Python does."""
    if is_tracing() and isinstance(target, torch.Tensor):
        if method in _FILLS:
            return _FILLS[method](target, *args, **kwargs)
        functional = getattr(torch.Tensor, method[:-1], None)
        if callable(functional) and method[:-1] not in _KEPT:
            return functional(target, *args, **kwargs).to(target.dtype).expand_as(target)
    getattr(target, method)(*args, **kwargs)
    return target
