"""Runtime versions of the builtins and tensor methods that would force a tensor into a Python
value while exporting: ``bool(t)``, ``int(t)``, ``float(t)``, ``len(t)``, ``t.item()`` and
``torch.tensor(number)``. Each gives the plain Python result when running eagerly (or on Python
values) and keeps the value symbolic (a tensor / symbolic size) while torch.export traces.
"""

from __future__ import annotations

import math

import torch

from deploy.rewriters.list_builtins import reduce_rows
from deploy.rewriters.logic import compare
from deploy.rewriters.mixed_rows import MixedRow
from deploy.rewriters.values import (
    StackedList,
    as_predicate,
    as_rows,
    as_tensor_value,
    is_row_list,
    is_sym_bool,
    is_sym_int,
    is_symbolic,
    is_tracing,
)


def bool_(value: object = False) -> object:
    """``bool(t)`` keeps a tensor predicate symbolic while exporting."""
    if is_symbolic(value):
        return as_predicate(value) if isinstance(value, torch.Tensor) else value
    return bool(value)


def int_(value: object = 0, *base) -> object:
    """``int(t)`` keeps a tensor / symbolic size symbolic while exporting (a 0-d int64 tensor)."""
    if not base and is_symbolic(value):
        if isinstance(value, torch.SymFloat):  # `int(lo * n)` of a dynamic size: truncated, symbolic
            return torch.sym_int(value)
        if isinstance(value, torch.Tensor) and value.dtype.is_floating_point:
            # NaN or an infinity (a branch computed but not taken divided by zero) as 0: eagerly
            # int() raises on them, so no path eager takes has one; cast, they would be a huge
            # negative count (a buffer of negative size in onnxruntime)
            value = torch.where(value.abs() <= 9.2e18, value, torch.zeros_like(value))
        if isinstance(value, torch.Tensor) and value.dim() > 0 and all(_is_one(d) for d in value.shape):
            value = value.reshape(())  # `int(torch.nonzero(hits)[0])`: a number, as int() gives
        return value.to(torch.int64) if isinstance(value, torch.Tensor) else value
    return int(value, *base)


def _is_one(size) -> bool:
    return isinstance(size, int) and not isinstance(size, torch.SymInt) and size == 1


def float_(value: object = 0.0) -> object:
    """``float(t)`` keeps a tensor / symbolic size symbolic while exporting."""
    if is_symbolic(value) and isinstance(value, torch.Tensor):
        return value.to(torch.float32)
    if is_symbolic(value) and (isinstance(value, torch.SymFloat) or is_sym_int(value)):
        # `float(len(kept))` of a count a loop made data-dependent: a SymFloat, not a guard on it
        return torch.sym_float(value)
    return float(value)


def len_(value: object) -> object:
    """``len(t)`` of a tensor is its (possibly dynamic) first size, not a specialised int."""
    if is_tracing() and isinstance(value, torch.Tensor) and value.dim() > 0:
        return value.shape[0]
    if isinstance(value, StackedList):  # a converted loop's list: its length may be symbolic
        return value.length()
    if type(value).__name__ in ("RowList", "KeptRows", "KeptObjects"):  # a list a graph loop carries, or the
        return value.length()  # values a comprehension kept: its count (a tensor)
    return len(value)


def divmod_(a: object, b: object) -> tuple:
    """``divmod(a, b)``: of a tensor, Python's floor quotient and the remainder with the divisor's
    sign (torch has no ``__divmod__``); else Python's."""
    if isinstance(a, torch.Tensor) or isinstance(b, torch.Tensor):
        return a // b, a % b
    return divmod(a, b)


def nonempty(value: object) -> object:
    """``len(xs) > 0`` guarding an append (passes/predicates._list_truth_form): a list itself, whose
    truth append_if reads (computing the value from at least one row where a converted loop left it
    empty); ``len(t) > 0`` of anything else, compared as a test compares."""
    if isinstance(value, (list, StackedList)) or is_row_list(value):
        return value
    return compare(len_(value), "gt", 0)


def tensor(data: object, *args, **kwargs) -> torch.Tensor:
    """``torch.tensor(number)`` or ``torch.tensor([[numbers]])``: while exporting, built from
    ``torch.full`` scalars (torch.tensor traced inside a graph op's body is a lifted constant with an
    in-place ``detach_``, which neither torch.onnx's decompositions nor its exporter handle)."""
    data = as_rows(data)
    if isinstance(data, StackedList) and not args and set(kwargs) <= {"dtype", "device"}:
        # `torch.tensor(states)` of a list a converted loop filled: its values stacked
        stacked = data.stacked_with_prefix()
        return stacked.to(kwargs["dtype"]) if kwargs.get("dtype") is not None else stacked
    flat, shape = _flatten_numbers(data)
    if is_tracing() and flat is not None and not args and set(kwargs) <= {"dtype", "device"}:
        dtype = kwargs.get("dtype") or _literal_dtype(flat)
        device = kwargs.get("device")
        if not flat:
            return torch.zeros(shape, dtype=dtype, device=device)
        scalars = [_scalar(v, dtype, device) for v in flat]
        return scalars[0] if not shape else torch.stack(scalars).reshape(shape)
    return torch.tensor(data, *args, **kwargs)


def new_tensor(like: object, data: object, **kwargs) -> torch.Tensor:
    """``like.new_tensor(data)``: while exporting, ``tensor(data)`` in ``like``'s dtype and device
    (Tensor.new_tensor traces to a lifted constant with the same in-place ``detach_`` as
    torch.tensor: `white = white.new_tensor(self.max_white)` in a branch)."""
    if not (is_tracing() and isinstance(like, torch.Tensor)) or set(kwargs) - {"dtype", "device"}:
        return like.new_tensor(data, **kwargs)
    dtype, device = kwargs.get("dtype") or like.dtype, kwargs.get("device") or like.device
    if isinstance(data, torch.Tensor):
        return data.clone().to(dtype=dtype, device=device)
    return tensor(data, dtype=dtype, device=device)


_MAX_LITERAL = 256


def row_of(values: list | tuple) -> object:
    """``[a, b]`` appended to a list (passes/row_literals.py): while exporting, a 1-D tensor when an
    entry is a tensor or a symbolic size (as ``torch.tensor`` would build it), a MixedRow for a tuple
    of ints and floats (mixed_rows.py); else as it is."""
    if not is_tracing() or not any(isinstance(v, torch.Tensor) or is_symbolic(v) for v in values):
        return values
    flat, shape = _flatten_numbers(list(values))
    if flat is None or len(shape) != 1:
        return values
    row = tensor(list(values))
    kinds = {_literal_dtype([v]).is_floating_point for v in flat}
    if type(values) is tuple and len(kinds) > 1:  # ints and floats: each its own where it stays a tuple
        return MixedRow(values, row)
    return row


def _literal_dtype(flat: list) -> torch.dtype:
    """What torch.tensor infers: bool, int64, or the default float (a float tensor's own dtype)."""
    kinds = [v.dtype if isinstance(v, torch.Tensor) else type(v) for v in flat]
    floats = [k for k in kinds if k is float or (isinstance(k, torch.dtype) and k.is_floating_point)]
    if floats:
        tensor_floats = [k for k in floats if isinstance(k, torch.dtype)]
        return (
            tensor_floats[0]
            if tensor_floats and len(tensor_floats) == len(floats)
            else torch.get_default_dtype()
        )
    if flat and all(k is bool or k == torch.bool for k in kinds):
        return torch.bool
    return torch.int64


def _scalar(value, dtype: torch.dtype, device) -> torch.Tensor:
    if isinstance(value, torch.Tensor):
        return value.to(dtype)
    if is_sym_int(value):
        return (torch.full((), 1, dtype=torch.int64, device=device) * value).to(dtype)
    return torch.full((), value, dtype=dtype, device=device)


def _flatten_numbers(data: object) -> tuple[list | None, tuple]:
    """The numbers of a (nested, rectangular) literal and its shape; None for anything else. While
    exporting, 0-d tensors and symbolic sizes count as numbers (``[start * w, t]`` in a loop)."""
    if isinstance(data, (bool, int, float)) and not (is_sym_int(data) or is_sym_bool(data)):
        return [data], ()
    if is_tracing() and (is_sym_int(data) or (isinstance(data, torch.Tensor) and data.dim() == 0)):
        return [data], ()
    if is_tracing() and isinstance(data, torch.Tensor) and data.dim() == 1 and not is_sym_int(data.shape[0]):
        return list(data.unbind(0)), (data.shape[0],)  # a row ``row_of`` built
    if not isinstance(data, (list, tuple)) or len(data) > _MAX_LITERAL:
        return None, ()
    parts = [_flatten_numbers(v) for v in data]
    if any(flat is None for flat, _ in parts) or len({shape for _, shape in parts}) > 1:
        return None, ()
    flat = [v for part, _ in parts for v in part]
    inner = parts[0][1] if parts else ()
    if len(flat) > _MAX_LITERAL:
        return None, ()
    return flat, (len(data), *inner)


def item(value: object) -> object:
    """``t.item()``: while exporting, the 0-d tensor itself, so predicates on it stay in the graph."""
    if is_tracing() and isinstance(value, torch.Tensor) and value.numel() == 1:
        return value.reshape(())
    return value.item()


def float_item(value: object) -> object:
    """``t.item()`` outside a test: for a floating-point tensor while exporting, the 0-d tensor (an
    unbacked float closed over by a cond branch cannot be traced there); torch's ``.item()``
    otherwise, so integer items stay unbacked sizes for torch._check, views and ranges."""
    if (
        is_tracing()
        and isinstance(value, torch.Tensor)
        and value.dtype.is_floating_point
        and value.numel() == 1
    ):
        return value.reshape(())
    return value.item()


def min_(*args, **kwargs) -> object:
    """``min(a, b)`` on sizes keeps a symbolic size symbolic (``k = min(top_k, x.shape[0])``):
    Python's min would compare, and a comparison of sizes specialises the dynamic dim."""
    if _on_sizes(args, kwargs):
        return _bounded(torch.sym_min(*args), upper=args)
    if _sizes_in_dynamo(args, kwargs):
        return torch.sym_min(*args)
    picked = _on_int_tensors(args, kwargs, torch.minimum)
    if picked is not None:
        return picked
    rows = reduce_rows("min", args[0]) if len(args) == 1 and not kwargs else None
    return rows if rows is not None else min(*args, **kwargs)


def max_(*args, **kwargs) -> object:
    """``max(a, b)`` on sizes, as min_."""
    if _on_sizes(args, kwargs):
        return _bounded(torch.sym_max(*args), lower=args)
    if _sizes_in_dynamo(args, kwargs):
        # torch 2.13: Python's max of a size in a while_loop body dynamo traces comes out as
        # sym_min (`max(n - 2, 0)` gave 0 for every n, silently); torch.sym_max stays a max
        return torch.sym_max(*args)
    picked = _on_int_tensors(args, kwargs, torch.maximum)
    if picked is not None:
        return picked
    rows = reduce_rows("max", args[0]) if len(args) == 1 and not kwargs else None
    return rows if rows is not None else max(*args, **kwargs)


def _sizes_in_dynamo(args: tuple, kwargs: dict) -> bool:
    """Two ints, one of them symbolic, in a body dynamo traces."""
    return (
        len(args) == 2
        and not kwargs
        and torch.compiler.is_dynamo_compiling()
        and any(is_sym_int(a) for a in args)
        and all(isinstance(a, (int, torch.SymInt)) and not isinstance(a, bool) for a in args)
    )


def _on_sizes(args: tuple, kwargs: dict) -> bool:
    return (
        len(args) == 2
        and not kwargs
        and is_tracing()
        and not torch.compiler.is_dynamo_compiling()
        and any(is_sym_int(a) for a in args)
        and all(isinstance(a, (int, torch.SymInt)) and not isinstance(a, bool) for a in args)
    )


def _on_int_tensors(args: tuple, kwargs: dict, pick) -> torch.Tensor | None:
    """``min(s + k, n)`` of a 0-d integer tensor (a converted loop's index, outside the body dynamo
    traces: a probe of one iteration) and a size while exporting: ``pick`` of the two as a 0-d
    tensor, as dynamo makes it inside the body. torch's own min/max while exporting clamps a tensor
    by a Python number, but compares it with a size: a data-dependent test it cannot decide. None
    for anything else."""
    if len(args) != 2 or kwargs or not is_tracing() or torch.compiler.is_dynamo_compiling():
        return None
    tensors = [a for a in args if isinstance(a, torch.Tensor)]
    sizes = [a for a in args if isinstance(a, torch.SymInt)]
    if len(tensors) != 1 or len(sizes) != 1:
        return None
    tensor = tensors[0]
    if tensor.dim() != 0 or tensor.dtype.is_floating_point or tensor.dtype == torch.bool:
        return None
    size = torch.full((), 1, dtype=tensor.dtype) * sizes[0]
    return pick(*(tensor if a is tensor else size for a in args))


def _bounded(value, upper: tuple = (), lower: tuple = ()):
    """The min/max as an unbacked size with its facts checked: torch.export cannot prove facts such
    as ``Min(16, n) <= n`` about the expression itself and would specialise the dim."""
    size = (torch.full((), 1, dtype=torch.int64) * value).item()
    torch._check(size >= 0)
    for bound in upper:
        torch._check(size <= bound)
    for bound in lower:
        torch._check(size >= bound)
    return size


def transposed(value: object) -> object:
    """``value.T``: a permute call while exporting (see passes/calls.py)."""
    if isinstance(value, torch.Tensor) and is_tracing():
        return value.permute(*reversed(range(value.dim())))
    return value.T


def matrix_transposed(value: object) -> object:
    """``value.mT``."""
    if isinstance(value, torch.Tensor) and is_tracing():
        return value.transpose(-2, -1)
    return value.mT


def linspace(start, end, steps, **kwargs) -> torch.Tensor:
    """``torch.linspace``; while exporting with a symbolic ``steps`` (a size a converted branch
    changed, an unbacked size) an arange scaled the way torch's kernel does (from the start for the
    first half, from the end for the second), since torch.linspace needs a specialised int there."""
    if not (is_tracing() and is_sym_int(steps)) or set(kwargs) - {"dtype", "device"}:
        return torch.linspace(start, end, steps, **kwargs)
    dtype = kwargs.get("dtype") or torch.get_default_dtype()
    index = torch.arange(steps, dtype=torch.int64, device=kwargs.get("device"))
    step = (end - start) / torch.clamp(torch.full((), 1, dtype=torch.int64) * steps - 1, min=1).to(dtype)
    ahead = start + step * index.to(dtype)
    behind = end - step * (steps - 1 - index).to(dtype)
    halfway = torch.clamp(torch.full((), 1, dtype=torch.int64) * steps // 2, min=1)  # steps=1: start
    return torch.where(index < halfway, ahead, behind).to(dtype)


def full_like(like: torch.Tensor, fill: object, **kwargs) -> torch.Tensor:
    """``torch.full_like``; a tensor fill value while exporting (a loop's counter: ``full_like(t_last,
    t)``) expanded instead, since torch reads it with ``.item()``, an int a graph op's body cannot
    give back."""
    if not _tensor_fill(fill, kwargs):
        return torch.full_like(like, fill, **kwargs)
    return _expanded(fill, like.shape, kwargs.get("dtype") or like.dtype, kwargs.get("device") or like.device)


def full(size, fill: object, **kwargs) -> torch.Tensor:
    """``torch.full``; a tensor fill value while exporting expanded (see ``full_like``), with the
    dtype torch infers from the number it stands for."""
    if not _tensor_fill(fill, kwargs):
        return torch.full(size, fill, **kwargs)
    if fill.dtype == torch.bool:
        inferred = torch.bool
    else:
        inferred = torch.get_default_dtype() if fill.dtype.is_floating_point else torch.int64
    return _expanded(fill, tuple(size), kwargs.get("dtype") or inferred, kwargs.get("device"))


def _tensor_fill(fill: object, kwargs: dict) -> bool:
    return is_tracing() and isinstance(fill, torch.Tensor) and not set(kwargs) - {"dtype", "device"}


def _expanded(fill: torch.Tensor, shape, dtype, device) -> torch.Tensor:
    return fill.reshape(()).to(dtype=dtype, device=device).expand(shape).clone()


MATH = {  # math functions of a size or tensor computed as tensors (passes/calls.py routes them)
    "log": torch.log,
    "log2": torch.log2,
    "log10": torch.log10,
    "log1p": torch.log1p,
    "sqrt": torch.sqrt,
    "exp": torch.exp,
    "expm1": torch.expm1,
    "sin": torch.sin,
    "cos": torch.cos,
    "tan": torch.tan,
    "asin": torch.asin,
    "acos": torch.acos,
    "atan": torch.atan,
    "sinh": torch.sinh,
    "cosh": torch.cosh,
    "tanh": torch.tanh,
    "fabs": torch.abs,
}


ROUNDING = {  # math.ceil / math.floor of a tensor (``math.ceil(math.log2(k))``): int64, as Python's int
    "ceil": lambda t: torch.ceil(t).to(torch.int64),
    "floor": lambda t: torch.floor(t).to(torch.int64),
}


def math_call(fn, value: object) -> object:
    """``math.log(n)`` (``sqrt``, ``exp``, ...) of a dynamic size or a tensor while exporting: the
    0-d float tensor of that function, where Python's would specialise the size to its example
    value (or read the tensor); ``math.ceil`` / ``math.floor`` of such a tensor: its int64 0-d
    tensor (of a SymFloat, Python's SymInt stays: a size); ``fn(value)`` otherwise."""
    name = getattr(fn, "__name__", "")
    if fn is not getattr(math, name, None) or not is_tracing():
        return fn(value)
    if name in MATH and is_symbolic(value):
        return MATH[name](as_tensor_value(value).to(torch.float32))
    if name in ROUNDING and isinstance(value, torch.Tensor) and value.dim() == 0:
        return ROUNDING[name](value)
    return fn(value)


def round_(value: object, *rest: object) -> object:
    """``round(t)`` of a 0-d tensor while exporting: ``torch.round`` (half to even, as Python's),
    where Python's ``Tensor.__round__`` has no handler in a graph op's body; ``round`` otherwise."""
    if not rest and is_tracing() and isinstance(value, torch.Tensor) and value.dim() == 0:
        return torch.round(value)
    return round(value, *rest)
