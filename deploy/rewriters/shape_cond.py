"""A tensor `if` whose branches leave tensors of different sizes (a branch on a dynamic size):

    if x.shape[2] > 16:
        x = max_pool2d(x, 2)        # (N, C, H//2, W//2) on one path, (N, C, H, W) on the other

torch.cond gives such a dim a new *unbacked* size; ``bound_new_sizes`` bounds it by what either
branch allows (at least 2 when both branches give at least 2, ...), which later stride checks need.

torch.cond also refuses differently-sized outputs whose symbolic strides are not plain products of
their sizes (``Max(1, H//2)`` after pooling). ``shape_cond`` then passes each such output through
the cond flattened (a dense copy, stride 1) with its differing sizes as an int64 tensor, and
reshapes it after the cond to those sizes (unbacked, bounded the same way). Sizes both branches
agree on (batch, channels) stay as they are, so later layers keep them.

Its branches read the unbacked sizes they close over as 0-d tensors, as a plain cond's do
(closures.py): ``keep = max(3, n * 3 // 4)`` is one (casts.py), and a branch taking ``topk(keep)``
under ``if keep >= n`` would otherwise fail to trace here, leaving only the fallback that computes
both branches (padded_select.py), whose untaken ``topk(keep)`` fails at run time for ``keep > n``.
"""

from __future__ import annotations

import contextlib
import math
from dataclasses import dataclass

import torch
from torch.fx.experimental.proxy_tensor import disable_proxy_modes_tracing
from torch.fx.experimental.symbolic_shapes import free_unbacked_symbols, guard_or_false, statically_known_true
from torch.utils import _pytree as pytree

from deploy.rewriters import sites
from deploy.rewriters.closures import unbacked_closures_as_tensors
from deploy.rewriters.foreign_symbols import distinct_unbacked_names
from deploy.rewriters.lifted_symbols import lifted_symbols_made
from deploy.rewriters.module_stack import kept_on_failure
from deploy.rewriters.placeholder_names import distinct_placeholder_names
from deploy.rewriters.size_facts import define_choice, guards_recorded, suppressed_guards
from deploy.rewriters.values import as_predicate, check_size, is_sym_int


@dataclass
class Resizing:
    layouts: list  # per output leaf: None (same shape on both paths) or per-dim size, None where it differs
    sizes: dict  # (leaf, dim) -> (then size, else size)
    spec: object  # the outputs' pytree structure


def resize_layouts(then_fn, else_fn, encode) -> Resizing | None:
    """Trace both branches (guards suppressed: a probe, its nodes are dead) and describe how their
    outputs differ; None when they differ in structure, dtype or rank, or not at all, or when a
    branch cannot be traced with guards suppressed (a loop whose trip count is a new unbacked size
    asks dynamo for a guard): the caller then computes both branches as they are."""
    try:
        probed = _probe(then_fn, else_fn, encode)
    except Exception:  # torch's many internal error types, and a loop's own error as that loop's
        return None
    if probed is None:
        return None
    return _layouts(*probed)


def _layouts(then_leaves, else_leaves, then_spec) -> Resizing | None:
    layouts = []
    for a, b in zip(then_leaves, else_leaves):
        if not (isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor)):
            layouts.append(None)
            continue
        if a.dtype != b.dtype or a.dim() != b.dim():
            return None
        dims = [x if same_size(x, y) else None for x, y in zip(a.shape, b.shape)]
        layouts.append(dims if None in dims else None)
    if all(layout is None for layout in layouts):
        return None
    sizes = {
        (i, d): (then_leaves[i].shape[d], else_leaves[i].shape[d])
        for i, layout in enumerate(layouts)
        if layout is not None
        for d, size in enumerate(layout)
        if size is None
    }
    return Resizing(layouts, sizes, then_spec)


def bound_new_sizes(result, then_fn, else_fn, encode, pred=None):
    """``result`` of a cond whose outputs got new unbacked sizes, sized as the branches allow: a size
    both branches agree on becomes that size (torch.cond gives even ``(n,)`` on both paths a new
    size), one that differs is bounded by what either branch allows, and outputs whose sizes agree
    on both paths share one size."""
    if torch.compiler.is_dynamo_compiling():
        return result  # a cond nested in a body dynamo traces: sizes are dynamo's to relate
    leaves, spec = pytree.tree_flatten(result)
    if not any(isinstance(v, torch.Tensor) and free_unbacked_symbols(v.shape) for v in leaves):
        return result
    try:  # the cond worked: only sizes wanted
        probed = _probe(then_fn, else_fn, encode, keep_facts=True)
    except Exception:  # torch's many types: a branch whose loop traces only as the cond's own
        probed = None  # body, not with guards suppressed; its new sizes stay unbounded
    if probed is None:
        return result
    same: dict = {}
    out = []
    for leaf, a, b in zip(leaves, *probed[:2]):
        if not all(isinstance(v, torch.Tensor) for v in (leaf, a, b)) or not leaf.dim() == a.dim() == b.dim():
            out.append(leaf)
            continue
        for d, (then_size, else_size) in enumerate(zip(a.shape, b.shape)):
            size = leaf.shape[d]
            if not free_unbacked_symbols(size):
                continue
            if same_size(then_size, else_size):
                torch._check(size == then_size)
                leaf = _resized(leaf, d, then_size)
                continue
            define_choice(size, pred, then_size, else_size)
            check_bounds(size, then_size, else_size)
            leaf = _resized(leaf, d, _unify(same, (then_size, else_size), size))
        out.append(leaf)
    return pytree.tree_unflatten(out, spec)


def _probe(then_fn, else_fn, encode, keep_facts: bool = False) -> tuple | None:
    """Both branches' output leaves, traced with guards suppressed (a probe: its nodes are dead);
    None when they differ in structure."""
    then_leaves, then_spec = pytree.tree_flatten(pytree.tree_map(encode, probed(then_fn, True, keep_facts)))
    else_leaves, else_spec = pytree.tree_flatten(pytree.tree_map(encode, probed(else_fn, True, keep_facts)))
    return (then_leaves, else_leaves, then_spec) if then_spec == else_spec else None


def probed(fn, record: bool = True, keep_facts: bool = False):
    """``fn()`` traced with guards suppressed and no rewrites recorded (a probe: its nodes are dead);
    ``record=False``: nor any graph node (a dead node that fails when re-run, ``p.reshape(1)`` of a
    larger ``p``, would break torch.onnx), for probes whose values are only looked at. ``keep_facts``:
    a probe that fails on a fact about a size it made (``u0 < 0`` after a slice) runs again keeping
    such facts (size_facts.suppressed_guards). Not for probes that choose a fallback: a chunked loop
    under a size branch is refused there, so the branches are selected at the top level instead."""
    mode = torch._guards.detect_fake_mode()
    env = mode.shape_env if mode else None
    pending = list(env.pending_fresh_unbacked_symbols) if env is not None and not record else None
    try:
        try:
            with _guards_off(env), _nodes(record), sites.probing(), kept_on_failure():
                return fn()
        except Exception as exc:  # torch's many types; only an undecided size is retried
            if not keep_facts or env is None or "data-dependent" not in str(exc):
                raise
        with suppressed_guards(env), _nodes(record), sites.probing(), kept_on_failure():
            return fn()
    finally:
        if pending is not None:  # unbacked ints made off the graph (a nested cond's) bind to no node
            env.pending_fresh_unbacked_symbols[:] = pending


def _guards_off(env):
    return env.suppress_guards() if env is not None else contextlib.nullcontext()


def _nodes(record: bool):
    return contextlib.nullcontext() if record else disable_proxy_modes_tracing()


def shape_cond(pred: torch.Tensor, then_fn, else_fn, encode, decode, resizing: Resizing):
    """torch.cond over branches whose tensor outputs differ in size as ``resizing`` describes."""
    layouts = resizing.layouts

    def packed(fn):
        def run():
            # resized outputs are flattened before any copy: cloning them as they are would put
            # guards on their ``Max(1, h//2)`` strides into the exported program
            leaves = pytree.tree_leaves(fn(), is_leaf=lambda v: v is None)
            out = []
            for leaf, layout in zip(leaves, layouts):
                if layout is None:
                    out.append(encode(leaf))
                    continue
                # a dense copy viewed flat: reshape(-1) of a strided slice (x[:, ::2]) guards on its sizes
                out.append(leaf.clone(memory_format=torch.contiguous_format).view(-1))
                sizes = [leaf.shape[d] for d, size in enumerate(layout) if size is None]
                out.append(torch.stack([torch.full((), 1, dtype=torch.int64) * s for s in sizes]))
            return tuple(out)

        return run

    with (
        unbacked_closures_as_tensors(then_fn, else_fn),
        distinct_unbacked_names(),
        lifted_symbols_made(),
        distinct_placeholder_names(),
    ):
        flat = list(torch.cond(pred, packed(then_fn), packed(else_fn), ()))
    leaves, same = [], {}
    for i, layout in enumerate(layouts):
        data = flat.pop(0)
        if layout is None:
            leaves.append(data)
            continue
        reported = flat.pop(0)
        shape, k = [], 0
        for d, size in enumerate(layout):
            if size is None:
                size = reported[k].item()
                if torch.compiler.is_dynamo_compiling():
                    a, b = resizing.sizes[(i, d)]
                    check_size(size)
                    torch._check(size >= torch.sym_min(a, b))
                    torch._check(size <= torch.sym_max(a, b))
                else:  # (dynamo would specialise the sizes _unify keys its table by)
                    define_choice(size, pred, *resizing.sizes[(i, d)])
                    check_bounds(size, *resizing.sizes[(i, d)])
                    size = _unify(same, resizing.sizes[(i, d)], size)
                k += 1
            shape.append(size)
        torch._check(data.shape[0] == math.prod(shape))
        leaves.append(data.reshape(shape))
    return pytree.tree_map(decode, pytree.tree_unflatten(leaves, resizing.spec))


def _unify(same: dict, pair: tuple, size):
    """Outputs whose sizes agree on both paths (scores and rows cut by one top-k) get one size: the
    first such output's, checked equal (torch relates unbacked sizes by such facts only one by one,
    not transitively, so each later output is cut to the first's size)."""
    key = tuple(v.node.expr if isinstance(v, torch.SymInt) else v for v in pair)
    if key not in same:
        same[key] = size
        return size
    torch._check(size == same[key])
    return same[key]


def _resized(leaf: torch.Tensor, dim: int, size) -> torch.Tensor:
    """``leaf`` whose new unbacked size in ``dim`` was checked equal to ``size``, with ``size`` as its
    size (a narrow the check proves no-op). In a probe the check relates no sizes (guards are
    suppressed), so a narrow would give the output yet another unbacked size, and a loop whose
    buffers a probed iteration sizes would then hold rows of a size unrelated to the values written
    into them (dynamo's "Guard failed on the same frame"): there, zeros of the checked size (a
    probe only looks at shapes; its nodes are dead)."""
    if _expr(leaf.shape[dim]) == _expr(size):
        return leaf
    if sites.is_probing():
        return leaf.new_zeros((*leaf.shape[:dim], size, *leaf.shape[dim + 1 :]))
    return leaf.narrow(dim, 0, size)


def _expr(size) -> object:
    return size.node.expr if isinstance(size, torch.SymInt) else size


def same_shape(a: torch.Tensor, b: torch.Tensor) -> bool:
    """Whether two tensors provably have the same shape (no guard on symbolic sizes)."""
    return a.dim() == b.dim() and all(same_size(x, y) for x, y in zip(a.shape, b.shape))


def same_size(a, b) -> bool:
    if isinstance(a, int) and isinstance(b, int) and not (is_sym_int(a) or is_sym_int(b)):
        return a == b
    if torch.compiler.is_dynamo_compiling():
        # inside a body dynamo traces, symbolic sizes pose as ints: sizes with example values are
        # compared (a guard, as before), an unbacked one (a filtered list's length) is not the same
        return guard_or_false(a == b)
    return statically_known_true(a == b)


def check_bounds(size, then_size, else_size) -> None:
    """An unbacked ``size`` lies between the smallest and largest value either branch allows."""
    lows, highs = [], []
    for value in (then_size, else_size):
        if isinstance(value, int):
            lows.append(value)
            highs.append(value)
            continue
        ranges = value.node.shape_env.bound_sympy(value.node.expr)
        low, high = _finite(ranges.lower), _finite(ranges.upper)
        lows.append(max(0, low) if low is not None else 0)
        highs.append(high)
    with guards_recorded():  # facts about the picked size, also in a trusted branch
        torch._check(size >= min(lows))
        if None not in highs:
            torch._check(size <= max(highs))


def _finite(bound) -> int | None:
    """A sympy range bound as an int; None for (torch's or sympy's) infinities."""
    try:
        return int(bound)
    except (TypeError, AttributeError, OverflowError, ValueError):
        return None


def resized_in_body(pred, then_fn, else_fn, encode, decode, outputs):
    """Inside a body dynamo traces (a loop's, after torch.cond refused the strides of a cond's
    resized outputs there: trace_state.resized_flat_now), a cond whose tensor outputs differ in size
    as ``shape_cond`` runs one at the top level; None when no output differs in size. Each new size
    is bounded by the two branches' sizes, which dynamo cannot bound by their ranges here.
    ``outputs``: both branches' encoded output leaves and structure, as probed
    (branch_probes.branch_outputs)."""
    if outputs is None:
        return None
    resizing = _layouts(*outputs)
    if resizing is None:
        return None
    return shape_cond(as_predicate(pred), then_fn, else_fn, encode, decode, resizing)
