"""LoopIndexSubscripts: ``self.blocks[i]`` with a computed index becomes
``_deploy_rt.pick(self.blocks, i, site)`` (choice.py); inside a `for t in range(...)` or `while` body, ``x[..., t, ...]`` (t the
counter or any variable the body assigns) becomes
``_deploy_rt.getitem(x, (..., t, ...))`` (an index_select while exporting, where ``t`` is the
while_loop's 0-d counter), and inside any `if`/loop body ``x[i] = v`` becomes
``x = _deploy_rt.setitem(x, i, v)`` (in place eagerly, functional inside a graph op, whose
bodies may not mutate their inputs).
"""

from __future__ import annotations

import ast

from deploy.rewriters.analysis import assigned_names
from deploy.rewriters.passes.base import RUNTIME, Context, Pass, call, constant, name, rooted_at_self, rt
from deploy.rewriters.passes.breaks import is_range_loop
from deploy.rewriters.passes.comprehensions import ENTRY_RUNNERS


def _index_expr(node: ast.Subscript) -> ast.expr:
    return node.slice


def _spans(index: ast.expr) -> ast.expr:
    """``t : t + k`` and ``t - k : t`` (k no call: a literal, ``self.chunk``, a constant, an unrolled
    loop's counter) -> ``_deploy_rt.span(start, k)``, a slice of static length when k is a Python
    int at run time (a graph loop's counter is a tensor there, and span reads it as slice_of)."""
    entries = index.elts if isinstance(index, ast.Tuple) else [index]
    out = []
    for entry in entries:
        upper = entry.upper if isinstance(entry, ast.Slice) else None
        tiled = _tile_length(entry) if isinstance(entry, ast.Slice) else None
        if tiled is not None:  # `i * k : (i + 1) * k`
            entry = call(rt("span"), entry.lower, tiled)
        elif (
            isinstance(upper, ast.BinOp)
            and isinstance(upper.op, ast.Add)
            and not any(isinstance(n, ast.Call) for n in ast.walk(upper.right))
            and entry.lower is not None
            and entry.step is None
            and ast.dump(upper.left) == ast.dump(entry.lower)
        ):
            entry = call(rt("span"), entry.lower, upper.right)
        elif _trailing_window(entry):  # `t - k : t`, the k values before t
            entry = call(rt("span"), entry.lower, entry.lower.right)
        elif _bounded(entry):  # `x[:, top:bottom, t]`, `tri[:rows, j]` with `rows = n - 1 - j`
            entry = call(rt("slice_of"), entry.lower or constant(None), entry.upper or constant(None))
        out.append(entry)
    return ast.Tuple(out, ast.Load()) if isinstance(index, ast.Tuple) else out[0]


def _bounded(entry: ast.expr) -> bool:
    """Whether ``entry`` is a slice with a computed bound (a tensor there, as a loop's counter or a
    value computed from it, builds no slice: bounded_slices.slice_of)."""
    if not isinstance(entry, ast.Slice) or entry.step is not None:
        return False
    return any(isinstance(b, _COMPUTED) for b in (entry.lower, entry.upper) if b is not None)


def _trailing_window(entry: ast.expr) -> bool:
    """Whether ``entry`` is the slice ``t - k : t`` with k no call."""
    if not isinstance(entry, ast.Slice) or entry.step is not None or entry.upper is None:
        return False
    lower = entry.lower
    return (
        isinstance(lower, ast.BinOp)
        and isinstance(lower.op, ast.Sub)
        and ast.dump(lower.left) == ast.dump(entry.upper)
        and not any(isinstance(n, ast.Call) for n in ast.walk(lower.right))
    )


def _tile_length(entry: ast.Slice) -> ast.expr | None:
    """k for the slice ``i * k : (i + 1) * k`` (either factor order), else None."""
    lower, upper = entry.lower, entry.upper
    if entry.step is not None or not all(
        isinstance(b, ast.BinOp) and isinstance(b.op, ast.Mult) for b in (lower, upper)
    ):
        return None
    for index, size in ((lower.left, lower.right), (lower.right, lower.left)):
        for grown, other in ((upper.left, upper.right), (upper.right, upper.left)):
            if (
                ast.dump(other) == ast.dump(size)
                and isinstance(grown, ast.BinOp)
                and isinstance(grown.op, ast.Add)
                and ast.dump(grown.left) == ast.dump(index)
                and isinstance(grown.right, ast.Constant)
                and grown.right.value == 1
                and not any(isinstance(n, ast.Call) for n in ast.walk(size))
            ):
                return size
    return None


class _LoopIndexRewriter(ast.NodeTransformer):
    def __init__(self, counters: set[str]):
        self.counters = counters

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        self.generic_visit(node)
        if not isinstance(node.ctx, ast.Load):
            return node
        used = {n.id for n in ast.walk(node.slice) if isinstance(n, ast.Name)}
        if not used & self.counters and not self._position_in_carried(node):
            return node
        return ast.copy_location(call(rt("getitem"), node.value, _spans(_index_expr(node))), node)

    def _position_in_carried(self, node: ast.Subscript) -> bool:
        """``prev[0]``, ``row[-1]`` of a value the loop body assigns (carried, a data-dependent size
        inside the graph loop): read by index_select, since torch's bounds check on such a size
        becomes a guard on the loop's input it cannot evaluate (subscripts.getitem)."""
        index = node.slice
        if isinstance(index, ast.UnaryOp) and isinstance(index.op, ast.USub):
            index = index.operand
        return (
            isinstance(node.value, ast.Name)
            and node.value.id in self.counters
            and isinstance(index, ast.Constant)
            and type(index.value) is int
        )

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        return node


_COMPUTED = (ast.Name, ast.Call, ast.BinOp, ast.UnaryOp, ast.Attribute, ast.Subscript, ast.IfExp)


class _ComputedIndexRewriter(ast.NodeTransformer):
    """``q[option]``, ``hm[y, x]`` with computed indices (possibly 0-d tensors: an argmax, an input)
    -> runtime getitem, which reads a 0-d integer tensor index by index_select while exporting
    instead of ``.item()`` (an unbacked size a cond or loop body cannot specialise). ``by_params``
    counts those indexed by a parameter (``dropoffs[i]`` in a helper a loop calls with its counter)
    or by a call's result (``net[torch.argmax(net)]`` in a helper with no control flow)."""

    def __init__(self, params: set[str]) -> None:
        self.params, self.by_params = params, 0

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        self.generic_visit(node)
        entries = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        listed = any(isinstance(e, ast.List) and e.elts for e in entries)  # x[[11, 13, 15], 2]
        # `tokens[:n]` with a computed bound (a tensor while exporting: bounded_slices.py)
        bounded = any(_bounded(e) for e in entries)
        if not isinstance(node.ctx, ast.Load) or not (
            listed or bounded or any(isinstance(e, _COMPUTED) for e in entries)
        ):
            return node
        if bounded:  # `start : stop` as slice_of(start, stop): a tensor bound may not build a slice,
            # and `a : a + window` as span(a, window) (a window of a static length, window_spans.py)
            node.slice = _spans(node.slice)
        self.by_params += any(isinstance(n, ast.Name) and n.id in self.params for n in ast.walk(node.slice))
        return ast.copy_location(call(rt("getitem"), node.value, _index_expr(node)), node)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        return node

    visit_Lambda = visit_FunctionDef


def _call_results(func: ast.FunctionDef) -> set[str]:
    """Names assigned a call's result in ``func`` (``idx = torch.argmax(net)``: a 0-d tensor while
    exporting, which a body dynamo traces would read by ``.item()``, an unbacked size)."""
    return {
        target.id
        for node in ast.walk(func)
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
        for target in node.targets
        if isinstance(target, ast.Name)
    }


def _computed_entries(index: ast.expr) -> bool:
    """Whether a subscript has an entry computed at run time (not a literal, slice or Ellipsis)."""
    entries = index.elts if isinstance(index, ast.Tuple) else [index]
    return any(not isinstance(e, (ast.Constant, ast.Slice)) for e in entries)


class _StoreRewriter(ast.NodeTransformer):
    """``x[i] = v`` -> ``x = setitem(x, i, v)`` for a plain-name ``x`` inside control-flow bodies."""

    def __init__(self) -> None:
        self.depth = 0
        self.local_stores = 0

    def _block_owner(self, node: ast.AST) -> ast.AST:
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1
        return node

    visit_If = visit_While = visit_For = _block_owner

    def visit_Assign(self, node: ast.Assign) -> ast.AST | list[ast.stmt]:
        target = node.targets[0]
        if self.depth and len(node.targets) == 1 and _unpacks_into_subscripts(target):
            return self._unpacked_stores(node, target)
        if (
            len(node.targets) != 1
            or not isinstance(target, ast.Subscript)
            or not isinstance(target.value, ast.Name)
        ):
            return node
        if self.depth == 0:
            # `dist[goal[0], goal[1]] = 0.0`: in place, with tensor positions as an index_put;
            # `logits[:, PAD] = -inf` in a helper a converted loop body calls: functional there
            # (torch.onnx cannot decompose in-place writes in a loop body)
            self.local_stores += 1
            value = call(rt("store"), name(target.value.id), target.slice, node.value)
            return ast.copy_location(ast.Assign([name(target.value.id, True)], value), node)
        value = call(rt("setitem"), name(target.value.id), target.slice, node.value)
        return ast.copy_location(ast.Assign([name(target.value.id, True)], value), node)

    def _unpacked_stores(self, node: ast.Assign, target: ast.Tuple) -> list[ast.stmt]:
        """``hs[i], cs[i] = cell(x, (hs[i], cs[i]))`` -> unpack into temporaries, then one
        ``hs = setitem(hs, i, _t0)`` per subscript (each a store the loop then carries)."""
        self.temps = getattr(self, "temps", 0)
        elements, stores = [], []
        for element in target.elts:
            if isinstance(element, ast.Subscript) and isinstance(element.value, ast.Name):
                temp = f"_deploy_unpacked{self.temps}"
                self.temps += 1
                elements.append(name(temp, True))
                value = call(rt("setitem"), name(element.value.id), element.slice, name(temp))
                stores.append(ast.copy_location(ast.Assign([name(element.value.id, True)], value), node))
            else:
                elements.append(element)
        unpack = ast.copy_location(ast.Assign([ast.Tuple(elements, ast.Store())], node.value), node)
        return [unpack, *stores]

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        return node


def _unpacks_into_subscripts(target: ast.AST) -> bool:
    """``a[i], b[i] = ...``: a flat tuple target with a subscript of a plain name among its elements."""
    return (
        isinstance(target, (ast.Tuple, ast.List))
        and all(isinstance(e, (ast.Name, ast.Subscript)) for e in target.elts)
        and any(isinstance(e, ast.Subscript) and isinstance(e.value, ast.Name) for e in target.elts)
    )


class _ChoiceRewriter(ast.NodeTransformer):
    """``self.blocks[i]`` with a computed ``i`` -> ``_deploy_rt.pick(self.blocks, i, site)``."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        self.generic_visit(node)
        index = node.slice
        if (
            not isinstance(node.ctx, ast.Load)
            or not isinstance(node.value, ast.Attribute)
            or not rooted_at_self(node.value)
            or isinstance(index, (ast.Constant, ast.Slice, ast.Tuple))
        ):
            return node
        site = self.ctx.new_site("index", node, self.ctx.source_of(node))
        return ast.copy_location(call(rt("pick"), node.value, index, ast.Constant(site)), node)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        return node


class _BranchConstantIndex(ast.NodeTransformer):
    """``slashes[1]`` under ``if slashes.numel() >= 3`` -> runtime getitem: where both branches of
    an `if` are computed (a select), the read on the path not taken must not fail out of range."""

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        self.generic_visit(node)
        index = node.slice
        if isinstance(index, ast.UnaryOp) and isinstance(index.op, ast.USub):
            index = index.operand
        if not (
            isinstance(node.ctx, ast.Load)
            and isinstance(node.value, ast.Name)
            and isinstance(index, ast.Constant)
            and type(index.value) is int
        ):
            return node
        return ast.copy_location(call(rt("getitem"), node.value, node.slice), node)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        return node

    visit_Lambda = visit_FunctionDef


def _entry_functions(func: ast.FunctionDef) -> list[ast.Lambda]:
    """The entry functions the passes made of comprehensions and generators:
    ``_deploy_rt.mapped_entries(lambda i: ...)``, ``kept_entries(xs, lambda l: ...)``, ``all_of``."""
    return [
        arg
        for node in ast.walk(func)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ENTRY_RUNNERS
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == RUNTIME
        for arg in node.args
        if isinstance(arg, ast.Lambda)
    ]


class LoopIndexSubscripts(Pass):
    """Loop-counter subscripts and subscript stores -> runtime getitem/setitem."""

    name = "loop-index-subscripts"

    def apply(self, func: ast.FunctionDef, ctx: Context) -> None:
        choices = _ChoiceRewriter(ctx)
        func.body = [choices.visit(stmt) for stmt in func.body]
        for node in ast.walk(func):
            if is_range_loop(node):
                counters = {node.target.id} | assigned_names(node.body)
            elif isinstance(node, ast.While):
                counters = assigned_names(node.body)  # `while i < n: ... x[i]` with i carried
            else:
                continue
            rewriter = _LoopIndexRewriter(counters)
            node.body = [rewriter.visit(stmt) for stmt in node.body]
            if isinstance(node, ast.While):  # `while i < n and x[:, i].sum() != 0`
                node.test = rewriter.visit(node.test)
        # `[idx[i] for i in range(n)]`: a scan's entry (mapped_entries.py), a comprehension's test
        entries = _entry_functions(func)
        for entry in entries:
            entry.body = _LoopIndexRewriter({a.arg for a in entry.args.args}).visit(entry.body)
        for node in ast.walk(func):
            if isinstance(node, ast.If):
                reads = _BranchConstantIndex()
                node.body = [reads.visit(stmt) for stmt in node.body]
                node.orelse = [reads.visit(stmt) for stmt in node.orelse]
        params = {a.arg for a in (*func.args.posonlyargs, *func.args.args, *func.args.kwonlyargs)} - {"self"}
        computed = _ComputedIndexRewriter(params | _call_results(func))
        func.body = [computed.visit(stmt) for stmt in func.body]
        for entry in entries:  # `DIAGONAL[leg]` in `[l for l in range(4) if l != DIAGONAL[leg]]`
            entry.body = computed.visit(entry.body)
        if computed.by_params:  # a helper with no control flow still runs converted (its reads)
            ctx.rewrote = True
        stores = _StoreRewriter()
        func.body = [stores.visit(stmt) for stmt in func.body]
        if stores.local_stores:
            ctx.rewrote = True
