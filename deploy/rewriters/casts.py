"""Runtime versions of the builtins and tensor methods that would force a tensor into a Python
value while exporting: ``bool(t)``, ``int(t)``, ``float(t)``, ``len(t)``, ``t.item()`` and
``torch.tensor(number)``. Each gives the plain Python result when running eagerly (or on Python
values) and keeps the value symbolic (a tensor / symbolic size) while torch.export traces.
"""

from __future__ import annotations

import torch

from deploy.rewriters.values import as_predicate, is_sym_bool, is_sym_int, is_symbolic, is_tracing


def bool_(value: object = False) -> object:
    """``bool(t)`` keeps a tensor predicate symbolic while exporting."""
    if is_symbolic(value):
        return as_predicate(value) if isinstance(value, torch.Tensor) else value
    return bool(value)


def int_(value: object = 0, *base) -> object:
    """``int(t)`` keeps a tensor / symbolic size symbolic while exporting (a 0-d int64 tensor)."""
    if not base and is_symbolic(value):
        return value.to(torch.int64) if isinstance(value, torch.Tensor) else value
    return int(value, *base)


def float_(value: object = 0.0) -> object:
    """``float(t)`` keeps a tensor symbolic while exporting."""
    if is_symbolic(value) and isinstance(value, torch.Tensor):
        return value.to(torch.float32)
    return float(value)


def len_(value: object) -> object:
    """``len(t)`` of a tensor is its (possibly dynamic) first size, not a specialised int."""
    if is_tracing() and isinstance(value, torch.Tensor) and value.dim() > 0:
        return value.shape[0]
    return len(value)


def tensor(data: object, *args, **kwargs) -> torch.Tensor:
    """``torch.tensor(number)``: while exporting, ``torch.full`` instead (torch.tensor traced inside a
    graph op's body leaves an in-place ``detach_`` that the ONNX exporter cannot translate)."""
    plain = isinstance(data, (bool, int, float)) and not (is_sym_int(data) or is_sym_bool(data))
    if is_tracing() and plain and not args and set(kwargs) <= {"dtype", "device"}:
        dtype = kwargs.get("dtype") or (
            torch.bool if isinstance(data, bool) else torch.int64 if isinstance(data, int) else None
        )
        return torch.full((), data, dtype=dtype or torch.get_default_dtype(), device=kwargs.get("device"))
    return torch.tensor(data, *args, **kwargs)


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
