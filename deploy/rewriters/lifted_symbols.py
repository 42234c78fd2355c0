"""Sizes a graph op nested in another graph op's body reads from the enclosing function.

``n = x.shape[0]`` read as ``n - pos`` in a loop body inside a cond branch (a loop under ``if n < 7:
return ...``): dynamo lifts ``n`` into each nested body as an input. When the body already bound
``n``'s symbol lazily (torch creates a lazy proxy for each size of a tensor it lifts, and makes the
node only when something uses it), torch 2.13 hands the lazy proxy itself out as the lifted value,
and the next op on it fails ("argument of type: LazyProxy": dynamo then reports "unimplemented
builtin op on tensor arguments" for ``n - pos``). While deploy builds a graph op, such a proxy is made
a node first, as torch does wherever else it reads a bound symbol. A no-op on torch builds without
lazy proxies.

Likewise a tensor lifted into a nested ``while_loop``'s body that shares storage with one of that
body's inputs (``req = requests[i]`` and ``need = req[0]``, both read by a ``while`` inside a ``for``
body): torch refuses higher-order ops whose inputs alias each other, so such a tensor is lifted as a
copy made in the enclosing graph.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import torch

try:
    from torch._dynamo.output_graph import LazyProxy, SubgraphTracer
    from torch._dynamo.variables.higher_order_ops import get_tensor_storages
except ImportError:  # other torch builds: nothing to mend
    LazyProxy = SubgraphTracer = get_tensor_storages = None

_LIFT = getattr(SubgraphTracer, "lift_tracked_freevar_to_input", None)
_DEPTH = [0]


def _input_storages(tracer) -> set:
    storages = set()
    for node in tracer.graph.find_nodes(op="placeholder"):
        value = node.meta.get("example_value")
        if isinstance(value, torch.Tensor) and not value.is_sparse:
            storages |= get_tensor_storages(value)
    return storages


def _aliasing_copy(self, proxy):
    """The lifted input for a copy of ``proxy``'s tensor, made in the parent graph, when that tensor
    shares storage with an input the body already has; None otherwise."""
    copies = self.__dict__.setdefault("_deploy_copies", {})
    if proxy in copies:
        return copies[proxy]
    value = proxy.node.meta.get("example_value")
    if proxy in self.lifted_freevars or not isinstance(value, torch.Tensor) or value.is_sparse:
        return None
    if not get_tensor_storages(value) & _input_storages(self):
        return None
    outer = proxy if proxy.tracer is self.parent else self.parent.lift_tracked_freevar_to_input(proxy)
    copy = self.parent.create_proxy("call_function", torch.clone, (outer,), {})
    with value.fake_mode:
        copy.node.meta["example_value"] = value.clone()
    copies[proxy] = _LIFT(self, copy)
    return copies[proxy]


def _lift(self, proxy):
    copied = _aliasing_copy(self, proxy)
    if copied is not None:
        return copied
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
