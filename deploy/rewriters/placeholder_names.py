"""Distinct parameter names for the bodies of graph ops dynamo builds.

When dynamo merges the inputs that a cond's two branches, or a while_loop's cond and body, lift
from the enclosing graph, it names each new placeholder after the lifted value plus a suffix for
the function that uses it alone (``result`` used only by the body becomes ``result_body_fn``). In
nested loops a value lifted one level up may already carry that name, and torch 2.13 then emits a
body ``def forward(self, ..., result_body_fn, result_body_fn)``, a SyntaxError. While deploy
builds a graph op, a placeholder whose name an earlier one already took gets its unique node name
instead (the bodies are called by position, so only the names change).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import torch

try:
    from torch._dynamo.variables import higher_order_ops as _hops
except ImportError:  # pragma: no cover - torch builds without dynamo
    _hops = None

_MERGE = getattr(_hops, "_merge_graph_inputs", None)
_DEPTH = [0]


def _distinct(graph: torch.fx.Graph) -> None:
    taken: set = set()
    for node in graph.nodes:
        if node.op != "placeholder":
            continue
        if node.target in taken:
            name, count = node.name, 1
            while name in taken:
                name, count = f"{node.name}_{count}", count + 1
            node.target = name
        taken.add(node.target)


def _merge(*args, **kwargs):
    merged = _MERGE(*args, **kwargs)
    for graph in merged[:2]:
        _distinct(graph)
    return merged


@contextmanager
def distinct_placeholder_names() -> Iterator[None]:
    """Within: graph op bodies dynamo builds get distinct parameter names. A no-op inside dynamo
    (the patch made at the top level is already in place) and on torch builds without the step."""
    if _MERGE is None or torch.compiler.is_dynamo_compiling():
        yield
        return
    _DEPTH[0] += 1
    _hops._merge_graph_inputs = _merge
    try:
        yield
    finally:
        _DEPTH[0] -= 1
        if _DEPTH[0] == 0:
            _hops._merge_graph_inputs = _MERGE
