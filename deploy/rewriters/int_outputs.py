"""Python ints a cond's branches give differently (`decision = 2` / `decision = 1`, `it + 1` / `it`
under a loop's break guard).

torch.cond returns such ints as a new unbacked int (inside a body dynamo traces; at the top level it
refuses them), whose runtime checks torch.onnx's decompositions cannot retrace ("pending unbacked
symbols"). ``differing_ints_as_tensors`` finds them by probing the branches and has them go through
the cond as 0-d int64 tensors, as loop-carried ints do.

A cond on a size test (``refractory = 4`` under ``if n > 128``, ``8`` otherwise) keeps them ints:
``ints_outside_size_cond`` takes them out of the cond as ``sym_ite(test, 4, 8)``, a size like any other.
"""

from __future__ import annotations

import sympy
import torch
from torch.fx.experimental.symbolic_shapes import free_unbacked_symbols
from torch.utils import _pytree as pytree

from deploy.rewriters.branch_probes import branch_outputs, probe
from deploy.rewriters.shape_cond import probed
from deploy.rewriters.size_branches import is_size_predicate
from deploy.rewriters.values import NONE_CODE, UNDEFINED_CODE, is_sym_int


def differing_ints_as_tensors(pred, then_fn, else_fn, top_level: bool):
    """A cond whose branches give different Python ints (`it + 1` / `it`, `decision = 2` /
    `decision = 1`) returns a new unbacked int (inside a body dynamo traces; at the top level
    torch.cond refuses it), whose runtime checks torch.onnx's decompositions cannot retrace
    ("pending unbacked symbols"). The branches are probed (traced once more; the nodes are dead;
    inside dynamo as branch_probes.probe traces them) and such ints go through the cond as 0-d
    int64 tensors, as loop-carried ints do. At the top level only when asked (``top_level``: the
    retry after torch.cond refused the ints)."""
    if torch.compiler.is_dynamo_compiling():
        run = probe
    elif top_level and not is_size_predicate(pred):  # size branches: clamps handle their ints
        run = lambda fn: probed(fn, record=False)  # noqa: E731
    else:
        return then_fn, else_fn
    return ints_as_tensors(then_fn, else_fn, branch_outputs(then_fn, else_fn, run))


def ints_as_tensors(then_fn, else_fn, outputs):
    """The branches with the ints they give differently (per ``outputs``, a probe's: see
    branch_probes.branch_outputs) as 0-d int64 tensors; unchanged when there are none."""
    if outputs is None:
        return then_fn, else_fn
    then_leaves, else_leaves, _ = outputs
    # two different ints, or an int against one a nested cond already made a tensor (or a symbol),
    # or a symbol against such a tensor (`transient = len(visited)` / `transient = start`)
    differ = [
        (_plain_int(a) and _plain_int(b) and a != b)
        or (_plain_int(a) and _int_valued(b))
        or (_int_valued(a) and _plain_int(b))
        or (is_sym_int(a) and _int_tensor_valued(b))
        or (_int_tensor_valued(a) and is_sym_int(b))
        for a, b in zip(then_leaves, else_leaves)
    ]
    # a tensor whose dtype depends on the path (`torch.zeros(())` / `torch.tensor(status)`): a graph
    # output has one dtype, the promoted one, which holds each path's values
    casts = [_promoted(a, b) for a, b in zip(then_leaves, else_leaves)]
    if not any(differ) and not any(casts):
        return then_fn, else_fn

    def as_tensors(fn):
        def run():
            leaves, tree = pytree.tree_flatten(fn())
            leaves = [_int_tensor(v) if d else v for v, d in zip(leaves, differ)]
            leaves = [v.to(c) if c is not None else v for v, c in zip(leaves, casts)]
            return pytree.tree_unflatten(leaves, tree)

        return run

    return as_tensors(then_fn), as_tensors(else_fn)


def result_ints_as_tensors(then_fn, else_fn, result):
    """The branches with each int the cond gave as a new unbacked int (``result``'s leaves; the
    branches gave different ints there) as a 0-d int64 tensor: for when probing the branches outside
    the cond fails (a branch whose shapes only the cond's own tracing decides)."""
    new = [_new_int(v) for v in pytree.tree_leaves(result)]
    if not any(new):
        return then_fn, else_fn

    def as_tensors(fn):
        def run():
            leaves, tree = pytree.tree_flatten(fn())
            if len(leaves) != len(new):
                raise ValueError("the branch gave another structure than the cond")
            return pytree.tree_unflatten([_int_tensor(v) if n else v for v, n in zip(leaves, new)], tree)

        return run

    return as_tensors(then_fn), as_tensors(else_fn)


def _promoted(a: object, b: object) -> torch.dtype | None:
    """The dtype two branches' tensors (numbers, not booleans) of different dtypes both take."""
    if not (isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor)) or a.dtype == b.dtype:
        return None
    if torch.bool in (a.dtype, b.dtype) or a.is_complex() or b.is_complex():
        return None
    return torch.promote_types(a.dtype, b.dtype)


def _int_valued(value: object) -> bool:
    """A symbolic int, or a 0-d int64 tensor (an int a nested cond carried as a tensor)."""
    if isinstance(value, torch.Tensor):
        return value.dim() == 0 and value.dtype == torch.int64
    return is_sym_int(value)


def _int_tensor_valued(value: object) -> bool:
    return isinstance(value, torch.Tensor) and _int_valued(value)


def _int_tensor(value: object) -> torch.Tensor:
    if isinstance(value, torch.Tensor):
        return value
    if is_sym_int(value):
        return torch.full((), 1, dtype=torch.int64) * value
    return torch.full((), value, dtype=torch.int64)


def _plain_int(value: object) -> bool:
    return type(value) is int and value not in (NONE_CODE, UNDEFINED_CODE) and not is_sym_int(value)


def ints_outside_size_cond(result, pred, then_fn, else_fn, encode, cond):
    """``result`` of ``cond(pred, then_fn, else_fn)`` on a size test, whose branches gave different
    ints (``refractory = 4`` / ``refractory = 8``) as a new unbacked int: torch.onnx cannot translate a
    branch returning a number. The cond again with those ints 0 on both paths (taken out of it before
    translation; the first cond is dead), each int ``sym_ite(test, then_int, else_int)`` after it."""
    test = getattr(pred, "_deploy_size_test", None)
    leaves, tree = pytree.tree_flatten(result)
    if not isinstance(test, torch.SymBool) or not any(_new_int(v) for v in leaves):
        return result
    try:
        then_leaves, spec = pytree.tree_flatten(
            probed(lambda: pytree.tree_map(encode, then_fn()), record=False)
        )
        else_leaves, else_spec = pytree.tree_flatten(
            probed(lambda: pytree.tree_map(encode, else_fn()), record=False)
        )
    except Exception:  # any failure, ours too: keep the cond that worked
        return result
    if spec != else_spec or len(then_leaves) != len(leaves):
        return result
    differ = [
        _new_int(v) and _size_int(a) and _size_int(b) for v, a, b in zip(leaves, then_leaves, else_leaves)
    ]
    if not any(differ):
        return result

    def same_ints(fn):
        def run():
            out, shape = pytree.tree_flatten(pytree.tree_map(encode, fn()))
            return pytree.tree_unflatten([0 if d else v for v, d in zip(out, differ)], shape)

        return run

    try:
        again, _ = pytree.tree_flatten(cond(pred, same_ints(then_fn), same_ints(else_fn)))
    except Exception:  # any failure, ours too: keep the cond that worked
        return result
    picked = [
        torch.sym_ite(test, a, b) if d else v for v, a, b, d in zip(again, then_leaves, else_leaves, differ)
    ]
    return pytree.tree_unflatten(picked, tree)


def _new_int(value: object) -> bool:
    return isinstance(value, torch.SymInt) and bool(free_unbacked_symbols(value))


def _size_int(value: object) -> bool:
    """A Python int or a size of the dynamic dims (no unbacked symbol): what sym_ite can pick."""
    if isinstance(value, torch.SymInt):
        return not free_unbacked_symbols(value)
    return _plain_int(value)


def ints_of_a_size_branch(pred, then_fn, else_fn):
    """``if abs(n - m) > w: w = abs(n - m)`` on dynamic sizes, whose branches give only sizes: each
    ``sym_ite(test, then_int, else_int)``, no graph op (torch.cond refuses a branch returning an
    expression of the input's sizes). None when a branch gives anything but ints of the dynamic
    dims (a tensor, an unbacked int) or fails."""
    test = getattr(pred, "_deploy_size_test", None) if is_size_predicate(pred) else None
    if not isinstance(test, torch.SymBool):
        return None
    try:
        then_leaves, spec = pytree.tree_flatten(probed(then_fn, record=False))
        else_leaves, else_spec = pytree.tree_flatten(probed(else_fn, record=False))
    except Exception:  # any failure, ours too: the cond's own error is shown
        return None
    sizes = [_size_int(a) and _size_int(b) for a, b in zip(then_leaves, else_leaves)]
    if spec != else_spec or not then_leaves or not all(sizes):
        return None
    return pytree.tree_unflatten([_size_ite(test, a, b) for a, b in zip(then_leaves, else_leaves)], spec)


def picked_sizes(exc: BaseException, pred, then_fn, else_fn):
    """After torch.cond refused the sizes its branches return (``max_lag = n // 2`` / ``= 100``
    under ``if n // 2 < 100``): the sizes picked with no graph op; None otherwise."""
    if "pytree of tensors or constant ints" not in str(exc):
        return None
    return ints_of_a_size_branch(pred, then_fn, else_fn)


def _size_ite(test: torch.SymBool, a: object, b: object) -> object:
    """``sym_ite`` of two sizes; an int beside a symbolic size is lifted by that size (``sym_ite``
    takes two of one type): ``sym_ite(t, a + s, b + s) - s``. A test comparing the two sizes picks
    the smaller or larger one: ``Min(100, n // 2)``, whose bounds torch knows (a ``sym_ite`` of them
    gives guards it cannot decide when the result bounds a loop or a slice)."""
    extreme = _min_or_max(test, a, b)
    if extreme is not None:
        return extreme
    if type(a) is int and type(b) is int:
        return a if a == b else torch.sym_ite(test, a, b)
    if is_sym_int(a) and is_sym_int(b):
        return torch.sym_ite(test, a, b)
    anchor = a if is_sym_int(a) else b
    return torch.sym_ite(test, a + anchor, b + anchor) - anchor


def _min_or_max(test: torch.SymBool, a: object, b: object) -> object:
    """``a if a < b else b`` as ``sym_min(a, b)`` (``a if a > b else b`` as ``sym_max``, ``<=`` and
    ``>=`` alike); None when the test does not compare ``a`` with ``b``."""
    if type(a) is int and type(b) is int:
        return None
    expr = test.node.expr
    if isinstance(expr, (sympy.StrictGreaterThan, sympy.GreaterThan)):
        low, high = expr.rhs, expr.lhs
    elif isinstance(expr, (sympy.StrictLessThan, sympy.LessThan)):
        low, high = expr.lhs, expr.rhs
    else:
        return None
    sides = tuple(v.node.expr if is_sym_int(v) else sympy.Integer(v) for v in (a, b))
    if sides == (low, high):
        return torch.sym_min(a, b)
    if sides == (high, low):
        return torch.sym_max(a, b)
    return None
