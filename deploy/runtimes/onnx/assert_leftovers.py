"""Drop what torch.onnx's assertion removal leaves behind: the symbolic comparisons the asserts read.

torch.onnx erases ``_assert_scalar`` and its kin before translating, but not the ``u0 <= bound`` that fed
them; those comparisons, read by nothing, are still translated. A bound that torch's value ranges made
larger than int64 (``sym_size <= 27670116110564327421``, from a product of loop counts) cannot become an
ONNX constant, and the whole translation failed on a check that was about to be thrown away. Symbolic
arithmetic and comparisons (Python ``operator`` functions) that nothing reads are removed right after the
asserts, in every graph; nothing else is touched.
"""

from __future__ import annotations

import operator
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from deploy.patching import patched

# Pure functions only: setitem and the in-place ones (iadd, ...) have effects and no users by nature.
_SYMBOLIC = {
    getattr(operator, name)
    for name in "lt le eq ne ge gt add sub mul floordiv truediv mod pow neg pos abs and_ or_ xor not_ "
    "invert lshift rshift truth".split()
}


def remove_unread_symbolic_ops(graph_module: Any) -> Any:
    for module in graph_module.modules():
        graph = getattr(module, "graph", None)
        if graph is None:
            continue
        removed = False
        for node in reversed(list(graph.nodes)):  # readers first, so a chain goes in one sweep
            if node.op == "call_function" and node.target in _SYMBOLIC and not node.users:
                graph.erase_node(node)
                removed = True
        if removed:
            module.recompile()
    return graph_module


@contextmanager
def assert_leftovers_removed() -> Iterator[None]:
    """While translating: torch.onnx's ``remove_assertion_nodes`` also removes the comparisons it orphans."""
    try:
        from torch.onnx._internal.exporter import _fx_passes
    except ImportError:  # another torch.onnx layout: leave it as it is
        yield
        return
    original = _fx_passes.remove_assertion_nodes

    def remove_assertion_nodes(graph_module: Any) -> Any:
        return remove_unread_symbolic_ops(original(graph_module))

    with patched(_fx_passes, "remove_assertion_nodes", remove_assertion_nodes):
        yield
