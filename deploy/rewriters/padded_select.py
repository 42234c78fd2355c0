"""A branch on a size whose branches leave different sizes and contain size branches of their own:

    if y.shape[-1] > 10:
        y = y[..., :10]
    elif y.shape[-1] < 4:          # a cond nested in the else branch
        y = torch.cat([y, y], -1)

torch.cond traces its branches with dynamo, and a cond nested there over sizes a previous branch
made unbacked fails on a stride check torch cannot decide (``Eq(Max(1, 2*u0), 1)``). Here both
branches run at the top level of the exported program instead (so a nested `if` is its own top-level
cond or select), every output that differs in size is flattened and zero-padded to the larger of the
two lengths, torch.where picks by the predicate, and the pick is cut and reshaped to the sizes of the
branch taken (unbacked sizes, bounded by both branches). Size branches are cheap (slicing, padding,
pooling), so computing both costs little; the branch not taken sees sizes it was not written for,
which is why this is the last resort after torch.cond and shape_cond.
"""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F
from torch.utils import _pytree as pytree

from deploy.rewriters.branch_guards import both_branches
from deploy.rewriters.shape_cond import check_bounds, same_shape, same_size
from deploy.rewriters.size_facts import define_choice


def padded_select(pred: torch.Tensor, then_fn, else_fn, where):
    """Both branches computed, outputs picked by ``pred``; None when their structure, dtypes or
    ranks differ. ``where(pred, a, b)`` picks between same-shaped tensors."""
    then_out, else_out = both_branches(pred, then_fn, else_fn)  # loops run on the path taken only
    then_leaves, then_spec = pytree.tree_flatten(then_out)
    else_leaves, else_spec = pytree.tree_flatten(else_out)
    if then_spec != else_spec:
        return None
    picked = []
    for a, b in zip(then_leaves, else_leaves):
        if not (isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor)):
            if a is b or (type(a) is type(b) and a == b):
                picked.append(a)
                continue
            return None
        if a.dtype != b.dtype or a.dim() != b.dim():
            return None
        picked.append(where(pred, a, b) if same_shape(a, b) else _pick_resized(pred, a, b, where))
    return pytree.tree_unflatten(picked, then_spec)


def _pick_resized(pred: torch.Tensor, a: torch.Tensor, b: torch.Tensor, where) -> torch.Tensor:
    flat_a, flat_b = a.reshape(-1), b.reshape(-1)
    length = torch.sym_max(flat_a.shape[0], flat_b.shape[0])
    flat_a = F.pad(flat_a, (0, length - flat_a.shape[0]))
    flat_b = F.pad(flat_b, (0, length - flat_b.shape[0]))
    data = where(pred, flat_a, flat_b)
    shape = []
    for then_size, else_size in zip(a.shape, b.shape):
        if same_size(then_size, else_size):
            shape.append(then_size)
            continue
        chosen = where(pred, _as_int64(then_size), _as_int64(else_size)).item()
        define_choice(chosen, pred, then_size, else_size)
        check_bounds(chosen, then_size, else_size)
        shape.append(chosen)
    count = math.prod(shape)
    torch._check(count <= length)
    return data.narrow(0, 0, count).reshape(shape)


def _as_int64(size) -> torch.Tensor:
    return torch.full((), 1, dtype=torch.int64) * size
