"""The probe of a cond's branches inside a body dynamo traces, and the constants kept out of such
a cond.

A cond in a body dynamo traces (a loop body, another cond's branch) has its branches traced once
before the cond itself, to tell which outputs are ints that differ (int_outputs.py) or one constant
on both paths (below). Traced as they are, such probes take time exponential in the nesting depth:
a nested `if` in a probed branch probes its own branches and traces its cond, so a branch d conds
deep is traced 2**d times (a run-length loop with `continue`s five conds deep took minutes per
export try). Within a probe a tensor `if` is therefore a select: both branches traced once, their
outputs picked with torch.where and encoded as the cond encodes them (``probe_select``); a cond
only where the outputs do not line up. Only inside dynamo: there a probe's nodes are dead code,
which torch drops; at the top level they would stay in the exported graph.

A dead cond in a traced body is erased by torch.export's dead-code pass, but its branch graphs stay
on the module, unreferenced and never cleaned, and torch's verifier still checks them; there a
getitem of a constant int output (None crosses a cond as one, selects.py) has no ``meta['val']``:
"Node.meta getitem is missing val field" (torch 2.13). A cond traced by dynamo therefore returns
no constants (``without_constants``): outputs both branches give as the same Python int stay out
of it, so even a dead cond (a probe's, or a value the user never reads) leaves valid graphs.
"""

from __future__ import annotations

import torch
from torch.utils import _pytree as pytree

from deploy.rewriters.selects import _decode, _encode, select
from deploy.rewriters.sizing_rows import sizing_now
from deploy.rewriters.trace_state import probing_now, set_probing
from deploy.rewriters.values import NONE_CODE, UNDEFINED_CODE, Undefined, as_predicate, is_sym_int


def probe(fn):
    """``fn()`` traced as a probe of a cond's branch (a tensor `if` in it is a select); inside
    dynamo only, elsewhere plainly ``fn()``."""
    if not torch.compiler.is_dynamo_compiling():
        return fn()
    previous = set_probing(True)
    try:
        return fn()
    finally:
        set_probing(previous)


def probe_select(pred: object, then_fn, else_fn):
    """Within a probe (or the run that finds the rows' shapes of lists a nested loop appends to:
    counted_rows.py, whose records a graph op's branch could not make), a tensor `if`: both branches computed once and picked with torch.where, their
    outputs encoded and decoded as a cond's are (a Python bool comes out a tensor, ints that differ
    a 0-d int64 tensor); None outside a probe or when the outputs do not line up."""
    probing = (torch.compiler.is_dynamo_compiling() and probing_now()) or sizing_now()
    if not (probing and isinstance(pred, torch.Tensor)):
        return None
    selected = select(
        as_predicate(pred),
        lambda: pytree.tree_map(_encode, then_fn()),
        lambda: pytree.tree_map(_encode, else_fn()),
    )
    return None if selected is None else pytree.tree_map(_decode, selected)


def probe_for_shapes(fn, slots: list[int]) -> tuple:
    """``fn()``'s outputs when only the shapes of those at ``slots`` are read (a placeholder for a
    value the other branch gives): traced as a probe, and again as it is when one of them has a
    dynamic size, which the placeholder reads from the value itself, keeping the probe's selects
    (both sides of a nested `if` computed) alive in the graph."""
    out = probe(fn)
    if torch.compiler.is_dynamo_compiling() and any(
        isinstance(v, torch.Tensor) and any(is_sym_int(size) for size in v.shape)
        for i in slots
        for v in pytree.tree_leaves(out[i])
    ):
        out = fn()
    return out


def branch_outputs(then_fn, else_fn, run=probe, differing: list | None = None):
    """Both branches' output leaves and their structure, each branch traced by ``run``; None when
    a branch fails or the structures differ (then both outputs go into ``differing`` if given)."""
    try:
        then_out, else_out = run(then_fn), run(else_fn)
    except Exception:  # any failure, ours too: the cond itself reports what fails
        return None
    then_leaves, spec = pytree.tree_flatten(then_out)
    else_leaves, else_spec = pytree.tree_flatten(else_out)
    if spec != else_spec:
        if differing is not None:
            differing[:] = [then_out, else_out]
        return None
    return then_leaves, else_leaves, spec


def without_constants(then_fn, else_fn, outputs):
    """Encoded branches returning only the outputs that are not one constant int on both paths (per
    ``outputs``, the probe's), and the function that puts the constants back into the cond's result.
    The branches are None when every output is constant (no cond is needed), unchanged when none is."""
    if outputs is None:
        return then_fn, else_fn, _unchanged
    then_leaves, else_leaves, spec = outputs
    constants = {}
    for i, (a, b) in enumerate(zip(then_leaves, else_leaves)):
        code = _constant(a, b)
        if code is not None:
            constants[i] = code
    if not constants:
        return then_fn, else_fn, _unchanged

    def varying(fn):
        def run():
            leaves, tree = pytree.tree_flatten(fn())
            if tree != spec or any(not _is_constant(leaves[i], c) for i, c in constants.items()):
                # never expected: the cond fails, and its fallbacks take over
                raise RuntimeError("a branch gave other constants when traced than when probed")
            return tuple(v for i, v in enumerate(leaves) if i not in constants)

        return run

    def rebuild(result):
        rest = iter(result)
        return pytree.tree_unflatten(
            [constants[i] if i in constants else next(rest) for i in range(len(then_leaves))], spec
        )

    if len(constants) == len(then_leaves):
        return None, None, rebuild
    return varying(then_fn), varying(else_fn), rebuild


def _is_constant(value: object, code: object) -> bool:
    if isinstance(code, torch.nn.Module):
        return value is code
    return type(value) is int and value == code


def _unchanged(result):
    return result


def _constant(a: object, b: object) -> int | None:
    """The int an output crosses a cond as when both branches give the same constant (None and
    Undefined as their codes, selects._encode); None otherwise."""
    if a is None and b is None:
        return NONE_CODE
    if isinstance(a, Undefined) and isinstance(b, Undefined):
        return UNDEFINED_CODE
    if type(a) is int and type(b) is int and not (is_sym_int(a) or is_sym_int(b)) and a == b:
        return a
    if isinstance(a, torch.nn.Module) and a is b:
        # `staged.append(self.chillers[idx])` under a tensor test: the module is a Python value on
        # both paths (a placeholder on the one that keeps nothing; its flag tells which)
        return a
    return None
