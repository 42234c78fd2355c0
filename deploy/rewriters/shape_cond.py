"""A tensor `if` whose branches leave tensors of different sizes (a branch on a dynamic size):

    if x.shape[2] > 16:
        x = max_pool2d(x, 2)        # (N, C, H//2, W//2) on one path, (N, C, H, W) on the other

torch.cond accepts differently-sized outputs only when their symbolic strides are plain products
of their sizes, which pooled or sliced sizes (``Max(1, H//2)``) are not. Each such output leaves
the cond flattened (stride 1) together with its differing sizes as an int64 tensor; after the cond
the tensor is reshaped with those sizes as unbacked sizes, bounded by what either branch allows.
Sizes both branches agree on (batch, channels) stay as they are, so later layers keep them.
"""

from __future__ import annotations

import contextlib
import math

import torch
from torch.fx.experimental.symbolic_shapes import statically_known_true
from torch.utils import _pytree as pytree


def resize_layouts(then_fn, else_fn, encode):
    """Trace both branches (guards suppressed: a probe, its nodes are dead) and describe how their
    outputs differ: ``(layouts, bounds)`` where a layout is None for an output passed as is, or the
    per-dim sizes with None where the branches differ; None when they differ in structure, dtype or
    rank, or not at all."""
    mode = torch._guards.detect_fake_mode()
    with mode.shape_env.suppress_guards() if mode and mode.shape_env else contextlib.nullcontext():
        then_leaves, then_spec = pytree.tree_flatten(pytree.tree_map(encode, then_fn()))
        else_leaves, else_spec = pytree.tree_flatten(pytree.tree_map(encode, else_fn()))
        if then_spec != else_spec:
            return None
        layouts = []  # per leaf: None (passes as is) or [size or None (differs) per dim]
        for a, b in zip(then_leaves, else_leaves):
            if not (isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor)):
                layouts.append(None)
                continue
            if a.dtype != b.dtype or a.dim() != b.dim():
                return None
            dims = [x if _same(x, y) else None for x, y in zip(a.shape, b.shape)]
            layouts.append(dims if None in dims else None)
        if all(layout is None for layout in layouts):
            return None
        bounds = {
            (i, d): _bounds(a.shape[d], b.shape[d])
            for i, (a, b, layout) in enumerate(zip(then_leaves, else_leaves, layouts))
            if layout is not None
            for d, size in enumerate(layout)
            if size is None
        }
    return layouts, bounds, then_spec


def shape_cond(pred: torch.Tensor, then_fn, else_fn, encode, decode, resizing):
    """torch.cond over branches whose tensor outputs differ in size as ``resizing`` (from
    resize_layouts) describes."""
    layouts, bounds, spec = resizing

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
                sizes = [leaf.shape[d] for d, size in enumerate(layout) if size is None]
                out.append(leaf.reshape(-1).clone())
                out.append(torch.stack([torch.full((), 1, dtype=torch.int64) * s for s in sizes]))
            return tuple(out)

        return run

    flat = list(torch.cond(pred, packed(then_fn), packed(else_fn), ()))
    leaves = []
    for i, layout in enumerate(layouts):
        if layout is None:
            leaves.append(flat.pop(0))
            continue
        data, sizes = flat.pop(0), flat.pop(0)
        shape, k = [], 0
        for d, size in enumerate(layout):
            if size is None:
                size = sizes[k].item()
                k += 1
                low, high = bounds[(i, d)]
                torch._check(size >= low)
                if high is not None:
                    torch._check(size <= high)
            shape.append(size)
        torch._check(data.shape[0] == math.prod(shape))
        leaves.append(data.reshape(shape))
    return pytree.tree_map(decode, pytree.tree_unflatten(leaves, spec))


def same_shape(a: torch.Tensor, b: torch.Tensor) -> bool:
    """Whether two tensors provably have the same shape (no guard on symbolic sizes)."""
    return a.dim() == b.dim() and all(_same(x, y) for x, y in zip(a.shape, b.shape))


def _same(a, b) -> bool:
    if isinstance(a, int) and isinstance(b, int):
        return a == b
    return statically_known_true(a == b)


def _bounds(a, b) -> tuple[int, int | None]:
    """The smallest lower and largest upper bound of two sizes (None: unbounded)."""
    lows, highs = [], []
    for size in (a, b):
        if isinstance(size, int):
            lows.append(size)
            highs.append(size)
            continue
        node = size.node
        ranges = node.shape_env.bound_sympy(node.expr)
        lows.append(max(0, int(ranges.lower)) if ranges.lower.is_finite else 0)
        highs.append(int(ranges.upper) if ranges.upper.is_finite else None)
    high = None if None in highs else max(highs)
    return min(lows), high
