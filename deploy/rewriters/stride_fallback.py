"""The fallback when torch.cond refuses branch outputs over its stride check: outputs of the same
size are both computed and selected with torch.where; outputs of different sizes cross a cond
flattened (shape_cond.py), or, for size branches nested in a resizing one, are both computed at the
top level (padded_select.py)."""

from __future__ import annotations

import torch

from deploy.errors import NotDeployableError
from deploy.rewriters import sites
from deploy.rewriters.module_stack import kept_on_failure
from deploy.rewriters.padded_select import padded_select
from deploy.rewriters.selects import _decode, _encode, _where, select
from deploy.rewriters.shape_cond import resize_layouts, shape_cond
from deploy.rewriters.size_branches import is_size_predicate, mark_size_predicate
from deploy.rewriters.values import as_predicate, as_tensor_value, is_sym_bool

# torch.cond's stride check on differently written symbolic strides; the same check on the sizes a
# previous resizing cond left behind (unbacked: ``Eq(Max(1, Min(10, u0)), 1)``)
STRIDE_CAUSES = (
    "stride is not a simple accumulative",
    "Could not guard on data-dependent expression",
    "sorted order of strides",  # (b, 0) from torch.full beside (b, u) from torch.stack(rows, 1)
    # (n, 0) beside (n, u) with stride Max(1, u) (xc @ V.T over a list a loop may leave empty): the
    # stride merge looks up Max(1, u) among products of sizes and raises a KeyError
    "KeyError(Max(1,",
)


def stride_fallback(exc: BaseException, pred: object, then_fn, else_fn, site_id: int, kind: str):
    """torch.cond refuses branch outputs whose symbolic strides are not plain products of their sizes
    (``Max(1, s)**2`` vs ``s**2`` on a branch over a dynamic size). Same-sized outputs: both branches
    computed and selected with torch.where; differently-sized ones: a cond over flattened outputs
    (shape_cond.py). None when neither applies."""
    if torch.compiler.is_dynamo_compiling():
        return None
    # a branch on a size may fail inside torch.cond for other reasons too (a size branch nested in
    # it, traced by dynamo): computing both branches at the top level avoids that nesting
    if not (any(cause in str(exc) for cause in STRIDE_CAUSES) or is_size_predicate(pred)):
        return None
    pred = _size_test(pred)
    if not isinstance(pred, torch.Tensor):
        return None
    resizing = resize_layouts(then_fn, else_fn, _encode)
    if resizing is not None:
        try:
            with kept_on_failure():
                result = shape_cond(as_predicate(pred), then_fn, else_fn, _encode, _decode, resizing)
        except NotDeployableError:
            raise
        except Exception:
            if not is_size_predicate(pred):
                return None  # the caller's next fallback: both paths selected at the top level
            # size branches nested in a resizing one: both computed at the top level (padded_select.py)
            result = padded_select(as_predicate(pred), then_fn, else_fn, _where)
            if result is None:
                raise
            kind = kind.replace("->cond", "->where")
        sites.mark_emitted(site_id, kind)
        return result
    selected = select(as_predicate(pred), then_fn, else_fn)
    if selected is not None:
        sites.mark_emitted(site_id, kind.replace("->cond", "->where"))
    return selected


def _size_test(pred: object) -> object:
    """`if h > 96:` on a dynamic size: the test as a 0-d tensor, marked as a size predicate."""
    return mark_size_predicate(as_tensor_value(pred), pred) if is_sym_bool(pred) else pred


def selected_sizes(pred: object, then_fn, else_fn):
    """A cond on a dynamic size as both branches computed at the top level and their outputs picked,
    zero-padded where their sizes differ (padded_select.py): a loop in a branch over a size derived
    from the tested one (``range(w // 128)`` under ``if w > 128:``) runs there as a top-level loop,
    which may run zero times (a scan inside torch.cond's branch assumes one iteration at least).
    None when the outputs do not line up."""
    test = _size_test(pred)
    if not isinstance(test, torch.Tensor):
        return None
    with kept_on_failure():
        return padded_select(as_predicate(test), then_fn, else_fn, _where)
