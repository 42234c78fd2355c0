"""ConstantQueues: a copy of a sequence that the function only reads at its front and pops from
the front becomes the sequence and a head position.

    pending = list(self.callouts)                      pending = list(self.callouts)
    for t in range(flight.shape[0]):                   _deploy_head_pending = 0
        while pending and alt < pending[0][0]:   ->    for t in range(flight.shape[0]):
            events.append(... pending[0][1] ...)           while _deploy_head_pending < len(pending) and
            pending.pop(0)                                        alt < pending[_deploy_head_pending][0]:
                                                               events.append(... pending[_deploy_head_pending][1] ...)
                                                               _deploy_head_pending += 1

Where the loop is a graph loop, the head is a loop-carried count and ``pending[head]`` one row of the
table the list's numbers make, read at a position known at run time (run_time_positions.read_at);
a list the graph loop popped could not be carried (its length would change per iteration). Only a
name assigned once, as ``list(seq)`` or ``seq[:]``, and used nowhere but in ``name[k]`` reads with
a constant ``k >= 0``, ``name.pop(0)`` statements, ``len(name)`` and truth tests is rewritten.
"""

from __future__ import annotations

import ast

from deploy.rewriters.passes.base import Context, Pass, map_blocks, name

_HEAD = "_deploy_head_"


def _copied(value: ast.expr) -> bool:
    """``list(seq)`` / ``seq[:]`` of a name or attribute."""
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "list":
        return (
            len(value.args) == 1
            and not value.keywords
            and isinstance(value.args[0], (ast.Name, ast.Attribute))
        )
    if isinstance(value, ast.Subscript) and isinstance(value.slice, ast.Slice):
        whole = value.slice.lower is None and value.slice.upper is None and value.slice.step is None
        return whole and isinstance(value.value, (ast.Name, ast.Attribute))
    return False


def _front_pop(node: ast.AST, queue: str) -> bool:
    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Call)
        and isinstance(node.value.func, ast.Attribute)
        and node.value.func.attr == "pop"
        and isinstance(node.value.func.value, ast.Name)
        and node.value.func.value.id == queue
        and len(node.value.args) == 1
        and isinstance(node.value.args[0], ast.Constant)
        and node.value.args[0].value == 0
        and not node.value.keywords
    )


def _queues(func: ast.FunctionDef) -> set[str]:
    """The names used only as the module docstring says."""
    assigned: dict[str, int] = {}
    copies: set[str] = set()
    for node in ast.walk(func):
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For, ast.With)):
            targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
            for target in targets:
                for leaf in ast.walk(target) if target is not None else ():
                    if isinstance(leaf, ast.Name) and isinstance(leaf.ctx, ast.Store):
                        assigned[leaf.id] = assigned.get(leaf.id, 0) + 1
            if (
                isinstance(node, ast.Assign)
                and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
            ):
                if _copied(node.value):
                    copies.add(node.targets[0].id)
    candidates = {q for q in copies if assigned.get(q) == 1}
    if not candidates:
        return set()
    allowed: dict[str, set[int]] = {q: set() for q in candidates}  # ids of the Name nodes used well
    for node in ast.walk(func):
        for queue in candidates:
            if _front_pop(node, queue):
                allowed[queue].add(id(node.value.func.value))
            elif _front_read(node, queue) or _length(node, queue):
                allowed[queue].add(id(node.value if isinstance(node, ast.Subscript) else node.args[0]))
            elif isinstance(node, (ast.If, ast.While, ast.IfExp)) and _is(node.test, queue):
                allowed[queue].add(id(node.test))
            elif isinstance(node, ast.BoolOp):
                allowed[queue].update(id(v) for v in node.values if _is(v, queue))
            elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not) and _is(node.operand, queue):
                allowed[queue].add(id(node.operand))
    used = {
        q
        for q in candidates
        for n in ast.walk(func)
        if isinstance(n, ast.Name) and n.id == q and isinstance(n.ctx, ast.Load) and id(n) not in allowed[q]
    }
    popped = {q for q in candidates for n in ast.walk(func) if _front_pop(n, q)}
    return (candidates & popped) - used


def _is(node: ast.AST, queue: str) -> bool:
    return isinstance(node, ast.Name) and node.id == queue and isinstance(node.ctx, ast.Load)


def _front_read(node: ast.AST, queue: str) -> bool:
    return (
        isinstance(node, ast.Subscript)
        and _is(node.value, queue)
        and isinstance(node.slice, ast.Constant)
        and type(node.slice.value) is int
        and node.slice.value >= 0
    )


def _length(node: ast.AST, queue: str) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "len"
        and len(node.args) == 1
        and _is(node.args[0], queue)
    )


class _Rewriter(ast.NodeTransformer):
    def __init__(self, queues: set[str]):
        self.queues = queues

    def _head(self, queue: str) -> ast.Name:
        return name(_HEAD + queue)

    def _left(self, queue: str) -> ast.expr:
        """How many entries are left: ``len(q) - head``."""
        size = ast.Call(ast.Name("len", ast.Load()), [name(queue)], [])
        return ast.BinOp(size, ast.Sub(), self._head(queue))

    def _truth(self, queue: str, like: ast.AST) -> ast.expr:
        size = ast.Call(ast.Name("len", ast.Load()), [name(queue)], [])
        return ast.copy_location(ast.Compare(self._head(queue), [ast.Lt()], [size]), like)

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        self.generic_visit(node)
        queue = next((q for q in self.queues if _front_read(node, q)), None)
        if queue is None:
            return node
        offset = node.slice.value
        index = (
            self._head(queue)
            if offset == 0
            else ast.BinOp(self._head(queue), ast.Add(), ast.Constant(offset))
        )
        return ast.copy_location(ast.Subscript(node.value, index, node.ctx), node)

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        queue = next((q for q in self.queues if _length(node, q)), None)
        return ast.copy_location(self._left(queue), node) if queue else node

    def visit_Expr(self, node: ast.Expr) -> ast.AST:
        queue = next((q for q in self.queues if _front_pop(node, q)), None)
        if queue is None:
            self.generic_visit(node)
            return node
        step = ast.AugAssign(name(_HEAD + queue, store=True), ast.Add(), ast.Constant(1))
        return ast.copy_location(step, node)

    def _tested(self, node: ast.AST) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.test, ast.Name) and node.test.id in self.queues:
            node.test = self._truth(node.test.id, node.test)
        return node

    visit_If = visit_While = visit_IfExp = _tested

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.AST:
        self.generic_visit(node)
        node.values = [
            self._truth(v.id, v) if isinstance(v, ast.Name) and v.id in self.queues else v
            for v in node.values
        ]
        return node

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        self.generic_visit(node)
        if (
            isinstance(node.op, ast.Not)
            and isinstance(node.operand, ast.Name)
            and node.operand.id in self.queues
        ):
            node.operand = self._truth(node.operand.id, node.operand)
        return node


class ConstantQueues(Pass):
    """A list copy popped only at its front -> the list and a head position (module docstring)."""

    name = "constant-queues"

    def apply(self, func: ast.FunctionDef, ctx: Context) -> None:
        queues = _queues(func)
        if not queues:
            return
        rewriter = _Rewriter(queues)

        def start(stmt: ast.stmt) -> list[ast.stmt] | None:
            if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1):
                return None
            target = stmt.targets[0]
            if not (isinstance(target, ast.Name) and target.id in queues):
                return None
            head = ast.copy_location(ast.Assign([name(_HEAD + target.id, store=True)], ast.Constant(0)), stmt)
            return [stmt, head]

        map_blocks(func, start)
        func.body = [rewriter.visit(stmt) for stmt in func.body]
        ast.fix_missing_locations(func)
