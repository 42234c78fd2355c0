"""Sizes a graph op nested in another graph op's body reads from the enclosing function.

``n = x.shape[0]`` read as ``n - pos`` in a loop body inside a cond branch (a loop under ``if n < 7:
return ...``): dynamo lifts ``n`` into each nested body as an input. When the body already bound
``n``'s symbol lazily (torch creates a lazy proxy for each size of a tensor it lifts, and makes the
node only when something uses it), torch 2.13 hands the lazy proxy itself out as the lifted value,
and the next op on it fails ("argument of type: LazyProxy": dynamo then reports "unimplemented
builtin op on tensor arguments" for ``n - pos``). While deploy builds a graph op, such a proxy is made
a node first, as torch does wherever else it reads a bound symbol. A no-op on torch builds without
lazy proxies.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import torch

try:
    from torch._dynamo.output_graph import LazyProxy, SubgraphTracer
except ImportError:  # other torch builds: nothing to mend
    LazyProxy = SubgraphTracer = None

_LIFT = getattr(SubgraphTracer, "lift_tracked_freevar_to_input", None)
_DEPTH = [0]


def _lift(self, proxy):
    lifted = _LIFT(self, proxy)
    if not isinstance(lifted, LazyProxy):
        return lifted
    made = lifted()
    value = proxy.node.meta.get("example_value")
    symbol = getattr(getattr(value, "node", None), "expr", None)
    if symbol is not None and self.bound_symbols.get(symbol) is lifted:
        self.bound_symbols[symbol] = made
    return made


@contextmanager
def lifted_symbols_made() -> Iterator[None]:
    """Within: a size lifted into a nested graph op's body is a graph node, never a lazy proxy. A
    no-op inside dynamo (the graph op being built outermost has it on already)."""
    if _LIFT is None or torch.compiler.is_dynamo_compiling():
        yield
        return
    _DEPTH[0] += 1
    SubgraphTracer.lift_tracked_freevar_to_input = _lift
    try:
        yield
    finally:
        _DEPTH[0] -= 1
        if _DEPTH[0] == 0:
            SubgraphTracer.lift_tracked_freevar_to_input = _LIFT
