"""Dead code: nodes nothing reads, and conds whose results nothing reads but the range checks of an
int they return.

A probe of one loop iteration (rewriters/loop_common.probe_iteration, shrinking_loop.py) traces the
loop body once for its shapes; its nodes are dead, but torch.export keeps them, and torch.onnx's
decomposition re-runs them (a `narrow` to a data-dependent size there fails as a "memo disaster").
Nodes whose results nothing reads and that have no effect (FX's dead-code rule: asserts stay) are
removed from every graph, after the checks of a tensor's dtype and device (`_assert_tensor_metadata`,
which torch.export adds where `torch.tensor([top, ...])` reads a loop's counter): those would keep a
dead probe's loop alive, to run (on values it was not written for) in the exported model.

A top-level `if` whose branches gave different Python ints is traced a second time with the ints
as 0-d tensors (rewriters/operators._ints_as_tensors_again); the first cond stays in the program
only because torch inserts runtime checks (`u1 >= 0`, `u1 <= 1`) where its new unbacked int is
read, and torch.onnx cannot translate a branch that returns a Python number. Such a cond, its
reads and those checks are removed. The same holds for a cond on a size test whose different ints
were taken out of a second cond (rewriters/int_outputs.ints_outside_size_cond); the sizes of the
tensors the first one returns are read only to be checked too.
"""

from __future__ import annotations

import operator
from typing import Any


def _only_checked(node: Any, dead: set) -> bool:
    """Whether every use of ``node`` is a symbolic comparison feeding `_assert_scalar` (collected
    into ``dead``), or nothing."""
    import torch

    for user in node.users:
        if user.op == "call_function" and user.target is torch.ops.aten._assert_scalar.default:
            dead.add(user)
        elif user.op == "call_function" and user.target is torch.ops.aten.sym_size.int:
            if not _only_checked(user, dead):  # the size of a tensor it returns, read to check it
                return False
            dead.add(user)
        elif user.op == "call_function" and not getattr(user.target, "__module__", "torch._ops").startswith(
            "torch._ops"
        ):
            if not _only_checked(user, dead):  # `u1 >= 0`, then its assert
                return False
            dead.add(user)
        else:
            return False
    return True


def remove_dead_nodes(program: Any) -> None:
    import torch

    metadata_check = torch.ops.aten._assert_tensor_metadata.default
    for module in program.graph_module.modules():
        graph = getattr(module, "graph", None)
        if graph is None:
            continue
        checks = [n for n in graph.nodes if n.op == "call_function" and n.target is metadata_check]
        for node in checks:  # a dtype/device check of a value whose type is already known
            graph.erase_node(node)
        if graph.eliminate_dead_code() or checks:
            module.recompile()


def remove_dead_conds(program: Any) -> None:
    import torch

    graph = program.graph_module.graph
    changed = False
    for node in list(graph.nodes):
        if node.op != "call_function" or node.target is not torch.ops.higher_order.cond:
            continue
        dead: set = set()
        readers = list(node.users)
        if not readers or any(r.target is not operator.getitem for r in readers):
            continue
        if not all(_only_checked(r, dead) for r in readers):
            continue
        for victim in _ordered(graph, dead | set(readers))[::-1]:  # users before what they read
            graph.erase_node(victim)
        graph.erase_node(node)
        changed = True
    if changed:
        program.graph_module.recompile()


def _ordered(graph: Any, nodes: set) -> list:
    return [n for n in graph.nodes if n in nodes]
