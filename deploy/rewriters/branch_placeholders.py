"""Branch wrappers that give a cond's two branches outputs of one structure and size: result
slots one path leaves unset take zeros shaped like the other path's value; values a dead path
leaves are reshaped like the live path's."""

from __future__ import annotations

import torch
from torch.utils import _pytree as pytree

from deploy.rewriters.branch_probes import probe_for_shapes
from deploy.rewriters.shape_cond import same_shape
from deploy.rewriters.values import Undefined, zeros_shaped_like


def with_placeholders(own, other, names: tuple[str, ...], unbound: bool = False):
    """A branch function whose generated result variables (``_deploy_return*``), when still None on
    this path, take zeros shaped like the other branch's value. They are only read on paths that
    assigned them (the returned flag guards them), so the placeholder never reaches the output."""
    slots = [
        i
        for i, n in enumerate(names)
        if n.startswith(("_deploy_return", "_deploy_appended", "_deploy_last", "_deploy_opt"))
    ]

    def branch():
        out = list(own())
        # in a loop body (``unbound``), also a variable of the user's this path leaves unbound (`j` set only
        # where the other path then `continue`s, set again before it is read): eager never reads it
        # on this path (Python would raise there); likewise one still None here (`best_cost = None`
        # before the loop, set where the other path keeps a row: read only behind a sentinel). At
        # the top level such a variable is an error naming it (a tensor made in one branch only and
        # used after the `if`).
        missing = [
            i
            for i in range(len(out))
            if (i in slots and (out[i] is None or isinstance(out[i], Undefined)))
            or (unbound and (isinstance(out[i], Undefined) or out[i] is None))
        ]
        if missing:
            theirs = probe_for_shapes(other, missing)
            for i in missing:
                if theirs[i] is not None and not isinstance(theirs[i], Undefined):
                    out[i] = pytree.tree_map(
                        lambda v: zeros_shaped_like(v) if isinstance(v, torch.Tensor) else v, theirs[i]
                    )
        partly = [i for i in slots if _has_none_entry(out[i])]  # `return None, 0`
        if partly:
            theirs = probe_for_shapes(other, partly)
            for i in partly:
                if isinstance(theirs[i], tuple) and len(theirs[i]) == len(out[i]):
                    out[i] = tuple(
                        zeros_shaped_like(t) if v is None and isinstance(t, torch.Tensor) else v
                        for v, t in zip(out[i], theirs[i])
                    )
        return tuple(out)

    branch._deploy_probed_only = ("other",)  # matched_sizes.py: read only for its shapes
    return branch


def _has_none_entry(value: object) -> bool:
    return isinstance(value, tuple) and any(v is None for v in value)


def shaped_like(own, other, names: tuple[str, ...]):
    """A branch whose values other than the result slots are dead: each tensor that differs in
    shape from ``other``'s becomes zeros shaped like that one, so the cond's outputs keep one size."""

    def branch():
        out = list(own())
        slots = [
            i
            for i, value in enumerate(out)
            if not names[i].startswith("_deploy_return") and isinstance(value, torch.Tensor)
        ]
        theirs = probe_for_shapes(other, slots) if slots else ()
        for i in slots:
            value, like = out[i], theirs[i]
            if isinstance(like, torch.Tensor) and like.dtype == value.dtype and not same_shape(like, value):
                out[i] = zeros_shaped_like(like)
        return tuple(out)

    branch._deploy_probed_only = ("other",)  # matched_sizes.py: read only for its shapes
    return branch
