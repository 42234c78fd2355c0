"""Rewrites of ops whose ONNX translation is only right for the example's sizes.

``adaptive_avg_pool1d/2d`` to a fixed output size over a *dynamic* input size: torch.onnx fixes the
pooling kernel from the example's size (a 32-long example gives kernel 2, wrong for length 40). Here
such a pool becomes window means from a cumulative sum, with each window's bounds computed from
the run-time size (start = floor(i * L / out), end = ceil((i + 1) * L / out)): exactly PyTorch's
windows, in ops ONNX and TFLite run for any size. ``adaptive_max_pool1d/2d`` likewise: each window's
maximum over a mask of its positions (when no node reads the pool's indices). Programs without such
a pool are left as they are.
"""

from __future__ import annotations

import operator
from typing import Any


def _adaptive_mean(x, dim: int, out: int):
    import torch

    length = x.shape[dim]
    index = torch.arange(out, dtype=torch.int64, device=x.device)
    start = (index * length) // out
    end = ((index + 1) * length + out - 1) // out
    zeros = x.new_zeros([*x.shape[:dim], 1, *x.shape[dim + 1 :]])
    sums = torch.cat([zeros, torch.cumsum(x, dim)], dim)
    total = sums.index_select(dim, end) - sums.index_select(dim, start)
    shape = [1] * x.dim()
    shape[dim] = out
    return total / (end - start).to(x.dtype).reshape(shape)


def _adaptive_max(x, dim: int, out: int):
    """Adaptive max pooling along ``dim`` with PyTorch's windows: each window's entries kept by a
    (out, L) mask, the rest -inf, then the max."""
    import torch

    length = x.shape[dim]
    index = torch.arange(out, dtype=torch.int64, device=x.device).unsqueeze(1)
    start = (index * length) // out
    end = ((index + 1) * length + out - 1) // out
    position = torch.arange(length, dtype=torch.int64, device=x.device).unsqueeze(0)
    inside = (position >= start) & (position < end)  # (out, L)
    moved = x.movedim(dim, -1).unsqueeze(-2)  # (..., 1, L)
    lowest = torch.full((), float("-inf"), dtype=x.dtype, device=x.device)
    return torch.where(inside, moved, lowest).amax(-1).movedim(-1, dim)


def _max_pool1d(x, output_size):
    values = _adaptive_max(x, x.dim() - 1, output_size[0])
    return values, _unread_indices(values)


def _max_pool2d(x, output_size):
    rows, cols = output_size
    values = _adaptive_max(_adaptive_max(x, x.dim() - 2, rows), x.dim() - 1, cols)
    return values, _unread_indices(values)


def _unread_indices(values):
    """The indices output of a max pool whose indices no node reads (checked before decomposing)."""
    import torch

    return torch.zeros(values.shape, dtype=torch.int64, device=values.device)


def _pool1d(x, output_size):
    return _adaptive_mean(x, x.dim() - 1, output_size[0])


def _pool2d(x, output_size):
    rows, cols = output_size
    return _adaptive_mean(_adaptive_mean(x, x.dim() - 2, rows), x.dim() - 1, cols)


def _dynamic_adaptive_pools(program: Any, targets: dict) -> bool:
    """Whether a pool of ``targets`` ({op: pooled dims}) pools dynamic sizes; max pools only count
    when no node reads their indices (the decomposition does not compute them)."""
    import torch

    for module in program.graph_module.modules():
        graph = getattr(module, "graph", None)
        for node in graph.nodes if isinstance(graph, torch.fx.Graph) else ():
            pooled = targets.get(node.target) if node.op == "call_function" else None
            value = node.args[0].meta.get("val") if pooled else None
            if value is None or all(isinstance(d, int) for d in value.shape[-pooled:]):
                continue
            if "max" in str(node.target) and any(
                user.target is not operator.getitem or (user.args[1] != 0 and user.users)
                for user in node.users
            ):
                continue
            return True
    return False


def _name_reduced_dims(program: Any) -> None:
    """``x.amax()`` / ``x.amin()`` over every dim (no ``dim`` given): torch.onnx's translation of
    aten.amax/amin requires the dims, so they are written out (same result), in every subgraph."""
    import torch

    targets = {torch.ops.aten.amax.default, torch.ops.aten.amin.default}
    for module in program.graph_module.modules():
        graph = getattr(module, "graph", None)
        for node in graph.nodes if isinstance(graph, torch.fx.Graph) else ():
            if node.op != "call_function" or node.target not in targets:
                continue
            dims = node.args[1] if len(node.args) > 1 else node.kwargs.get("dim", [])
            value = node.args[0].meta.get("val") if isinstance(node.args[0], torch.fx.Node) else None
            if dims or value is None:
                continue
            keepdim = node.args[2] if len(node.args) > 2 else node.kwargs.get("keepdim", False)
            node.args = (node.args[0], list(range(value.dim())), keepdim)
            node.kwargs = {}
            module.recompile()


def _symbolic_scalar_operands(program: Any) -> None:
    """``idx % w`` with ``w`` a symbolic size is aten.remainder.Scalar with a SymInt operand, which
    torch.onnx's translation cannot take (it wants a Python number): the Tensor overload with the
    size as a 0-d tensor computes the same."""
    import torch

    aten = torch.ops.aten
    overloads = {aten.remainder.Scalar: aten.remainder.Tensor, aten.fmod.Scalar: aten.fmod.Tensor}
    for module in program.graph_module.modules():
        graph = getattr(module, "graph", None)
        for node in list(graph.nodes) if isinstance(graph, torch.fx.Graph) else ():
            if node.op != "call_function" or node.target not in overloads:
                continue
            value, other = node.args[0], node.args[1]
            if not isinstance(other, torch.fx.Node) or not isinstance(value, torch.fx.Node):
                continue
            dtype = value.meta["val"].dtype if "val" in value.meta else torch.int64
            with graph.inserting_before(node):
                scalar = graph.call_function(aten.scalar_tensor.default, (other,), {"dtype": dtype})
            node.target = overloads[node.target]
            node.args = (value, scalar)
            module.recompile()


def _float_clamp_bounds(program: Any) -> None:
    """``y.clamp(0, 64.0)`` of a float tensor: one int and one float bound, for which torch.onnx finds
    no overload ("Cannot find a compatible OpOverload for aten.clamp"); both bounds as floats compute
    the same. A symbolic-size bound: see ``_tensor_bounds``."""
    import torch

    clamp = torch.ops.aten.clamp.default
    for module in program.graph_module.modules():
        graph = getattr(module, "graph", None)
        for node in list(graph.nodes) if isinstance(graph, torch.fx.Graph) else ():
            if (
                node.op != "call_function"
                or node.target != clamp
                or not isinstance(node.args[0], torch.fx.Node)
            ):
                continue
            value = node.args[0].meta.get("val")
            if not isinstance(value, torch.Tensor):
                continue
            bounds = list(node.args[1:]) + [node.kwargs.get(k) for k in ("min", "max") if k in node.kwargs]
            if any(isinstance(b, torch.fx.Node) for b in bounds):
                _tensor_bounds(graph, node, value.dtype)
                module.recompile()
            elif value.dtype.is_floating_point and any(
                isinstance(b, int) and not isinstance(b, bool) for b in bounds
            ):
                as_float = lambda b: float(b) if isinstance(b, int) and not isinstance(b, bool) else b  # noqa: E731
                node.args = (node.args[0], *map(as_float, node.args[1:]))
                node.kwargs = {k: as_float(v) for k, v in node.kwargs.items()}
                module.recompile()


def _tensor_bounds(graph: Any, node: Any, dtype: Any) -> None:
    """``leftover.clamp(min=0, max=demand.shape[0])``: a bound that is a symbolic size has no overload
    torch.onnx finds either; the Tensor overload with the bounds as 0-d tensors computes the same."""
    import torch

    aten = torch.ops.aten
    low = node.args[1] if len(node.args) > 1 else node.kwargs.get("min")
    high = node.args[2] if len(node.args) > 2 else node.kwargs.get("max")
    with graph.inserting_before(node):
        low, high = (
            None if b is None else graph.call_function(aten.scalar_tensor.default, (b,), {"dtype": dtype})
            for b in (low, high)
        )
    node.target = aten.clamp.Tensor
    node.args, node.kwargs = (node.args[0], low, high), {}


def _distinct_graph_op_operands(program: Any) -> None:
    """Views passed into a graph op (``dx, dy = disp[0], disp[1]`` read by a nested cond's branches,
    ``x, y, vx, vy = ball.unbind(0)``) share storage, and torch.onnx's decompositions refuse a cond or loop whose inputs may alias
    ("cond_true might be aliasing the input"): each such operand is passed as a copy."""
    import torch

    hops = {torch.ops.higher_order.cond: (3,), torch.ops.higher_order.while_loop: (2, 3)}
    for module in program.graph_module.modules():
        graph = getattr(module, "graph", None)
        changed = False
        for node in list(graph.nodes) if isinstance(graph, torch.fx.Graph) else ():
            positions = hops.get(node.target) if node.op == "call_function" else None
            for position in positions or ():
                if position >= len(node.args) or not isinstance(node.args[position], (list, tuple)):
                    continue
                operands = list(node.args[position])
                for i, operand in enumerate(operands):
                    if not (isinstance(operand, torch.fx.Node) and _is_view(operand)):
                        continue
                    with graph.inserting_before(node):
                        copy = graph.call_function(torch.ops.aten.clone.default, (operand,))
                    copy.meta.update({k: v for k, v in operand.meta.items() if k in ("val", "tensor_meta")})
                    operands[i] = copy
                    changed = True
                args = list(node.args)
                args[position] = type(node.args[position])(operands)
                node.args = tuple(args)
        if changed:
            module.recompile()


def _constant_cond_outputs(program: Any) -> None:
    """A cond output both branches return as the same Python int (a value that is None on either
    path, encoded as an int code) is that int after the cond: torch.onnx cannot translate a branch
    returning a Python number. The output is removed from both branches and its reads replaced."""
    import torch

    for module in program.graph_module.modules():
        graph = getattr(module, "graph", None)
        changed = False
        for node in list(graph.nodes) if isinstance(graph, torch.fx.Graph) else ():
            if node.op != "call_function" or node.target is not torch.ops.higher_order.cond:
                continue
            branches = [
                getattr(module, n.target, None) if isinstance(n, torch.fx.Node) else None
                for n in node.args[1:3]
            ]
            if any(b is None or not isinstance(getattr(b, "graph", None), torch.fx.Graph) for b in branches):
                continue
            outputs = [b.graph.output_node() for b in branches]
            results = [list(o.args[0]) for o in outputs]
            constant = [
                i for i, (a, b) in enumerate(zip(*results)) if type(a) is int and type(b) is int and a == b
            ]
            readers = [u for u in node.users if u.target is operator.getitem]
            if not constant or len(readers) != len(node.users) or len(constant) == len(results[0]):
                continue
            for reader in readers:
                index = reader.args[1]
                if index in constant:
                    reader.replace_all_uses_with(results[0][index])
                    graph.erase_node(reader)
                else:
                    reader.args = (node, index - sum(1 for c in constant if c < index))
            for branch, output, values in zip(branches, outputs, results):
                output.args = (tuple(v for i, v in enumerate(values) if i not in constant),)
                branch.recompile()
            if isinstance(node.meta.get("val"), (list, tuple)):
                node.meta["val"] = type(node.meta["val"])(
                    v for i, v in enumerate(node.meta["val"]) if i not in constant
                )
            _shift_bindings(node, constant)
            changed = True
        if changed:
            module.recompile()


def _shift_bindings(node: Any, removed: list[int]) -> None:
    """The unbacked sizes a cond binds, found at output positions after the ``removed`` ones shifted
    (torch re-binds them by position when torch.onnx re-runs the graph)."""
    from torch.utils._pytree import SequenceKey

    bindings = node.meta.get("unbacked_bindings")
    if not bindings:
        return
    shifted = {}
    for symbol, path in bindings.items():
        if path and isinstance(path[0], SequenceKey):
            index = path[0].idx
            path = (SequenceKey(index - sum(1 for c in removed if c < index)), *path[1:])
        shifted[symbol] = path
    node.meta["unbacked_bindings"] = shifted


def _is_view(node: Any) -> bool:
    """A view op's result, or an entry of one's list (``x, y = ball.unbind(0)``)."""
    import operator

    if node.op == "call_function" and node.target is operator.getitem and node.args:
        source = node.args[0]
        return hasattr(source, "op") and _is_view(source)
    schema = getattr(node.target, "_schema", None) if node.op == "call_function" else None
    return bool(schema and schema.returns and schema.returns[0].alias_info is not None)


def size_exact(program: Any) -> Any:
    """``program`` with adaptive average pools over dynamic sizes decomposed (see module docstring),
    full amax/amin reductions given their dims, views passed to conds/loops copied, constant cond outputs
    taken out of the cond, dead nodes removed, bool selects as logic (bool_selects.py), argmax/argmin over
    data-dependent lengths padded (empty_args.py), and the ops of linalg.py by their definitions."""
    from deploy.runtimes.onnx.bool_selects import bool_selects_as_logic
    from deploy.runtimes.onnx.dead_conds import remove_dead_conds, remove_dead_nodes
    from deploy.runtimes.onnx.empty_args import pad_empty_arg_reductions
    from deploy.runtimes.onnx.linalg import table_for

    remove_dead_nodes(program)
    bool_selects_as_logic(program)
    _name_reduced_dims(program)
    pad_empty_arg_reductions(program)
    _symbolic_scalar_operands(program)
    _float_clamp_bounds(program)
    _distinct_graph_op_operands(program)
    remove_dead_conds(program)
    _constant_cond_outputs(program)
    table = table_for(program)
    import torch

    aten = torch.ops.aten
    means = {
        aten.adaptive_avg_pool1d.default: 1,
        aten.adaptive_avg_pool2d.default: 2,
        aten._adaptive_avg_pool2d.default: 2,
    }
    if _dynamic_adaptive_pools(program, means):
        table.update(
            {
                aten.adaptive_avg_pool1d.default: _pool1d,
                aten.adaptive_avg_pool2d.default: _pool2d,
                aten._adaptive_avg_pool2d.default: _pool2d,
            }
        )
    maxima = {aten.adaptive_max_pool1d.default: 1, aten.adaptive_max_pool2d.default: 2}
    if _dynamic_adaptive_pools(program, maxima):
        table.update(
            {aten.adaptive_max_pool1d.default: _max_pool1d, aten.adaptive_max_pool2d.default: _max_pool2d}
        )
    return program.run_decompositions(table) if table else program
