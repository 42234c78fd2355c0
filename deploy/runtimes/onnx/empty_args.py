"""argmax/argmin over a length that may be 0 at run time, made safe to compute speculatively.

Inside a converted loop, both sides of a branch are computed and one result is picked
(``if win.max() < t: pos = nxt`` / ``else: pos = lo + win.argmax()``). On the path not taken the
window ``env[lo:hi]`` may be empty; eager PyTorch never computes it there, but the graph does, and
onnxruntime's ArgMax fails on an empty axis (the whole run fails although the value is discarded).
Where the reduced length is data-dependent (an unbacked size), one entry of the dtype's lowest
value (highest for argmin) is appended along the axis first: it never wins over a real entry (the
first of equal entries wins, and it comes last), and on an empty axis the index is a placeholder
that is never picked.
"""

from __future__ import annotations

from typing import Any


def _extreme(dtype, lowest: bool):
    import torch

    if dtype == torch.bool:
        return not lowest
    if dtype.is_floating_point:
        return float("-inf") if lowest else float("inf")
    info = torch.iinfo(dtype)
    return info.min if lowest else info.max


def _may_be_empty(size) -> bool:
    from torch.fx.experimental.symbolic_shapes import free_unbacked_symbols

    return bool(free_unbacked_symbols(size))


def pad_empty_arg_reductions(program: Any) -> None:
    import torch

    aten = torch.ops.aten
    lowest_of = {aten.argmax.default: True, aten.argmin.default: False}
    for module in program.graph_module.modules():
        graph = getattr(module, "graph", None)
        changed = False
        for node in list(graph.nodes) if isinstance(graph, torch.fx.Graph) else ():
            if node.op != "call_function" or node.target not in lowest_of or node.meta.get("deploy_padded"):
                continue
            x = node.args[0]
            value = x.meta.get("val") if isinstance(x, torch.fx.Node) else None
            dim = node.args[1] if len(node.args) > 1 else node.kwargs.get("dim")
            keepdim = node.args[2] if len(node.args) > 2 else node.kwargs.get("keepdim", False)
            if value is None or (dim is None and keepdim):
                continue
            sizes = [value.numel()] if dim is None else [value.shape[dim]]
            if not _may_be_empty(sizes[0]):
                continue
            axis = 0 if dim is None else dim
            extreme = _extreme(value.dtype, lowest_of[node.target])
            with graph.inserting_before(node):
                source = graph.call_function(aten.reshape.default, (x, [-1])) if dim is None else x
                shaped = graph.call_function(aten.sum.dim_IntList, (source, [axis], True))
                pad = graph.call_function(aten.full_like.default, (shaped, extreme), {"dtype": value.dtype})
                padded = graph.call_function(aten.cat.default, ([source, pad], axis))
            node.args = (padded, axis, keepdim)
            node.kwargs = {}
            node.meta["deploy_padded"] = True  # size_exact may run on a program twice (check, emit)
            changed = True
        if changed:
            module.recompile()
