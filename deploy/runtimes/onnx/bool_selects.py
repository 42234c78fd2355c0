"""``torch.where(c, a, b)`` of bool tensors (``up = torch.where(fails >= 3, zeros_like(up), up)``):
onnxruntime has no kernel for ONNX ``Where`` on bool values, so such a select is written with the
logical ops it stands for, ``(c and a) or (not c and b)``, in every graph of the program (the
bodies of conds and loops too)."""

from __future__ import annotations

from typing import Any


def bool_selects_as_logic(program: Any) -> None:
    import torch

    aten = torch.ops.aten
    for module in program.graph_module.modules():
        graph = getattr(module, "graph", None)
        if graph is None:
            continue
        selects = [n for n in graph.nodes if n.op == "call_function" and n.target is aten.where.self]
        changed = False
        for node in selects:
            value = node.meta.get("val")
            if not isinstance(value, torch.Tensor) or value.dtype is not torch.bool:
                continue
            test, then, other = node.args
            vals = [getattr(a, "meta", {}).get("val") for a in (test, then, other)]
            if not all(isinstance(v, torch.Tensor) for v in vals):
                continue
            with graph.inserting_before(node):
                taken = _logical(graph, aten.logical_and.default, test, then)
                untaken = _logical(graph, aten.logical_not.default, test)
                kept = _logical(graph, aten.logical_and.default, untaken, other)
                picked = _logical(graph, aten.logical_or.default, taken, kept)
            picked.meta.update({k: v for k, v in node.meta.items() if k != "val"})
            node.replace_all_uses_with(picked)
            graph.erase_node(node)
            changed = True
        if changed:
            module.recompile()


def _logical(graph: Any, op: Any, *args: Any) -> Any:
    """``op(*args)`` added to ``graph``, with the value torch.onnx reads its shape and type from."""
    made = graph.call_function(op, args)
    made.meta["val"] = op(*(a.meta["val"] for a in args))
    return made
