"""Static facts about Python source the passes need: which names a block assigns, reads, and
which names are live (read later before being reassigned) after a statement.

Liveness is the classic backward data-flow over structured code (no gotos), approximated on the
conservative side: a name that *might* be read later counts as live. The passes use it to decide
which variables a branch or a loop must hand back (its outputs / loop-carried values) and which
are temporaries local to the converted body.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Sequence


def _target_names(target: ast.AST, out: set[str]) -> None:
    if isinstance(target, ast.Name):
        out.add(target.id)
    elif isinstance(target, (ast.Tuple, ast.List)):
        for element in target.elts:
            _target_names(element, out)
    elif isinstance(target, ast.Starred):
        _target_names(target.value, out)


class _Assigned(ast.NodeVisitor):
    """Collects names bound by a block (assignments, for targets, with-as, walrus), not descending
    into nested function/class scopes beyond their own names."""

    def __init__(self) -> None:
        self.names: set[str] = set()

    def visit_Assign(self, node: ast.Assign) -> None:
        for target in node.targets:
            _target_names(target, self.names)
        self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        _target_names(node.target, self.names)
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            _target_names(node.target, self.names)
        self.generic_visit(node)

    def visit_For(self, node: ast.For) -> None:
        _target_names(node.target, self.names)
        self.generic_visit(node)

    def visit_withitem(self, node: ast.withitem) -> None:
        if node.optional_vars is not None:
            _target_names(node.optional_vars, self.names)
        self.generic_visit(node)

    def visit_NamedExpr(self, node: ast.NamedExpr) -> None:
        _target_names(node.target, self.names)
        self.generic_visit(node)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self.names.add(node.name)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.names.add(node.name)

    def visit_Lambda(self, node: ast.Lambda) -> None:
        pass

    def visit_ListComp(self, node: ast.AST) -> None:
        pass

    visit_SetComp = visit_DictComp = visit_GeneratorExp = visit_ListComp


def assigned_names(nodes: Iterable[ast.AST]) -> set[str]:
    """Names a list of statements binds in the current scope."""
    collector = _Assigned()
    for node in nodes:
        collector.visit(node)
    return collector.names


def read_names(nodes: Iterable[ast.AST]) -> set[str]:
    """Every name loaded anywhere under the nodes, nested scopes included (conservative), except
    the names a comprehension or a lambda binds for itself: ``[p[i] for i in ...]`` does not read
    the ``i`` of the code around it."""
    names: set[str] = set()
    for node in nodes:
        _loads(node, frozenset(), names)
    return names


_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)


def _loads(node: ast.AST, bound: frozenset[str], out: set[str]) -> None:
    if isinstance(node, _COMPREHENSIONS):
        _comprehension_loads(node, bound, out)
        return
    if isinstance(node, ast.Lambda):
        for default in [*node.args.defaults, *(d for d in node.args.kw_defaults if d is not None)]:
            _loads(default, bound, out)
        params = {a.arg for a in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]}
        params |= {a.arg for a in (node.args.vararg, node.args.kwarg) if a is not None}
        _loads(node.body, bound | params, out)
        return
    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id not in bound:
        out.add(node.id)
    elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
        if node.target.id not in bound:
            out.add(node.target.id)
    for child in ast.iter_child_nodes(node):
        _loads(child, bound, out)


def _comprehension_loads(node: ast.AST, bound: frozenset[str], out: set[str]) -> None:
    """The first iterable is read where the comprehension stands; the rest sees its targets."""
    inner = set(bound)
    for index, generator in enumerate(node.generators):
        _loads(generator.iter, frozenset(inner) if index else bound, out)
        _target_names(generator.target, inner)
        for test in generator.ifs:
            _loads(test, frozenset(inner), out)
    parts = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
    for part in parts:
        _loads(part, frozenset(inner), out)


def _live_before_stmt(stmt: ast.stmt, live_after: set[str]) -> set[str]:
    if isinstance(stmt, ast.If):
        return (
            read_names([stmt.test])
            | live_before(stmt.body, live_after)
            | live_before(stmt.orelse, live_after)
        )
    if isinstance(stmt, (ast.While, ast.For)):
        head = [stmt.test] if isinstance(stmt, ast.While) else [stmt.iter]
        live = set(live_after) | read_names(head)
        if getattr(stmt, "_break_flag", None):  # a converted `for` tests its break flag every iteration
            live.add(stmt._break_flag)
        targets: set[str] = set()
        if isinstance(stmt, ast.For):
            _target_names(stmt.target, targets)  # each iteration binds the target before the body
        for _ in range(3):  # fixpoint over the back edge; three rounds suffice for structured code
            live = live | (live_before(stmt.body, live) - targets) | live_before(stmt.orelse, live_after)
        return live
    if isinstance(stmt, ast.Return):
        return read_names([stmt.value]) if stmt.value is not None else set()
    if isinstance(stmt, (ast.Raise,)):
        return read_names([stmt])
    if isinstance(stmt, (ast.Try, ast.With)):
        return set(live_after) | read_names([stmt])
    killed = set()
    if isinstance(stmt, ast.Assign):
        for target in stmt.targets:
            _target_names(target, killed)
    elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
        _target_names(stmt.target, killed)
    return (set(live_after) - killed) | read_names([stmt])


def live_before(stmts: Sequence[ast.stmt], live_after: set[str]) -> set[str]:
    """Names whose current value may be read by ``stmts`` or by the code after them."""
    live = set(live_after)
    for stmt in reversed(stmts):
        live = _live_before_stmt(stmt, live)
    return live


def has_node(nodes: Iterable[ast.AST], kinds: tuple[type, ...], stop: tuple[type, ...] = ()) -> bool:
    """Whether a node of ``kinds`` occurs under ``nodes``, not looking inside ``stop`` nodes
    (nested functions always stop the search)."""
    stop = stop + (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
    todo = [n for n in nodes if not isinstance(n, stop)]
    while todo:
        node = todo.pop()
        if isinstance(node, kinds):
            return True
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, stop):
                todo.append(child)
    return False
