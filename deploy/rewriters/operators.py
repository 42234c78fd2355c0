"""Runtime operators the rewritten `if`/ternary/`and`/`or`/`not` call (AutoGraph-style dispatch).

Each operator looks at the predicate *per call*: a plain Python value (config flag,
``self.training``, a static size, anything while running eagerly) runs the plain Python
construct; a tensor or symbolic size while exporting emits ``torch.cond``. The branch functions
are traced by torch (dynamo) inside cond, so nothing here may have Python side effects on that
path; non-tensor branch outputs cross the cond encoded as ints (see values.py).
"""

from __future__ import annotations

import torch
from torch.utils import _pytree as pytree

from deploy.errors import NotDeployableError
from deploy.rewriters import sites
from deploy.rewriters.values import (
    NONE_CODE,
    UNDEFINED_CODE,
    Undefined,
    as_predicate,
    is_symbolic,
    is_tracing,
)


def _encode(value: object) -> object:
    if isinstance(value, torch.Tensor):
        return value.clone()  # cond outputs may not alias its inputs
    if value is None:
        return NONE_CODE
    if isinstance(value, Undefined):
        return UNDEFINED_CODE
    if isinstance(value, bool):
        return torch.full((), value, dtype=torch.bool)
    if isinstance(value, float):
        return torch.full((), value, dtype=torch.float32)
    return value


def _decode(value: object) -> object:
    if isinstance(value, int) and not isinstance(value, bool):
        if value == NONE_CODE:
            return None
        if value == UNDEFINED_CODE:
            return Undefined("?")
    return value


def _explain(exc: BaseException) -> str:
    for line in str(exc).splitlines():
        line = line.strip()
        if line.startswith("Explanation:"):
            return line[len("Explanation:") :].strip()
    text = str(exc).strip().splitlines()
    return text[0][:300] if text else type(exc).__name__


def _nested_deploy_error(exc: BaseException) -> NotDeployableError | None:
    while exc is not None:
        if isinstance(exc, NotDeployableError):
            return exc
        exc = exc.__cause__ or exc.__context__
    return None


def emit_cond(pred: object, then_fn, else_fn, site_id: int, names: tuple[str, ...], kind: str):
    """torch.cond over two zero-argument branch functions; errors name the user's line."""
    site = sites.get_site(site_id)
    if site.unsupported:
        raise site.error(
            f"this `{site.construct}` on a tensor value cannot become torch.cond: {site.unsupported}"
        )

    def branch(fn):
        return lambda: pytree.tree_map(_encode, fn())

    try:
        result = torch.cond(as_predicate(pred), branch(then_fn), branch(else_fn), ())
    except NotDeployableError:
        raise
    except Exception as exc:  # torch raises many internal types here; the user needs one line
        nested = _nested_deploy_error(exc)
        if nested is not None:
            raise nested from exc
        assigned = f" ({', '.join(names)})" if names else ""
        raise site.error(
            f"cannot turn this `{site.construct}` on a tensor value into torch.cond: {_explain(exc)}. "
            f"Both branches must give the variables used afterwards{assigned} tensors of the same dtype "
            "and rank (initialise a variable before the `if` when only one branch assigns it)."
        ) from exc
    if not torch.compiler.is_dynamo_compiling():
        sites.mark_emitted(site_id, kind)
    return pytree.tree_map(_decode, result)


def if_stmt(pred: object, then_fn, else_fn, args: tuple, names: tuple[str, ...], site_id: int) -> tuple:
    """``if pred: then else: else`` where the branches take and return the variables they assign."""
    if is_symbolic(pred):
        return emit_cond(pred, lambda: then_fn(*args), lambda: else_fn(*args), site_id, names, "if->cond")
    taken = bool(pred)
    if not is_tracing():
        sites.record_branch(site_id, "then" if taken else "else")
    return then_fn(*args) if taken else else_fn(*args)


def if_expr(pred: object, then_thunk, else_thunk, site_id: int) -> object:
    """``a if pred else b``."""
    if is_symbolic(pred):
        return emit_cond(pred, then_thunk, else_thunk, site_id, (), "ifexp->cond")
    taken = bool(pred)
    if not is_tracing():
        sites.record_branch(site_id, "then" if taken else "else")
    return then_thunk() if taken else else_thunk()


def _bool_tensor(value: object) -> torch.Tensor:
    if isinstance(value, torch.Tensor):
        return as_predicate(value)
    if isinstance(value, torch.SymBool):
        return torch.full((), 1, dtype=torch.int64).mul(torch.sym_ite(value, 1, 0)).bool()
    return torch.full((), bool(value), dtype=torch.bool)


def and_(*thunks) -> object:
    """``a and b and ...``: short-circuits on Python values, logical_and on tensors."""
    value = thunks[0]()
    for thunk in thunks[1:]:
        if is_symbolic(value):
            value = torch.logical_and(_bool_tensor(value), _bool_tensor(thunk()))
        elif not value:
            return value
        else:
            value = thunk()
    return value


def or_(*thunks) -> object:
    """``a or b or ...``: short-circuits on Python values, logical_or on tensors."""
    value = thunks[0]()
    for thunk in thunks[1:]:
        if is_symbolic(value):
            value = torch.logical_or(_bool_tensor(value), _bool_tensor(thunk()))
        elif value:
            return value
        else:
            value = thunk()
    return value


def not_(value: object) -> object:
    """``not a``: logical_not on tensors, sym_not on symbolic sizes."""
    if is_symbolic(value):
        if isinstance(value, torch.SymBool):
            return torch.sym_not(value)
        return torch.logical_not(as_predicate(value))
    return not value


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


def item(value: object) -> object:
    """``t.item()``: while exporting, the 0-d tensor itself, so predicates on it stay in the graph."""
    if is_tracing() and isinstance(value, torch.Tensor) and value.numel() == 1:
        return value.reshape(())
    return value.item()


def python_predicate(pred: object, site_id: int) -> object:
    """The test of an `if`/loop that must stay plain Python: a tensor predicate while exporting is an
    error naming the user's line and what to change."""
    if is_symbolic(pred):
        site = sites.get_site(site_id)
        reason = site.unsupported or "this statement cannot be converted"
        raise site.error(
            f"this `{site.construct}` depends on a tensor value and cannot be converted: {reason}"
        )
    return pred
