"""What every pass shares: the conversion context (user file, source lines, sites, fresh names),
block walking, small AST builders, and the liveness / definite-assignment annotations the
control-flow passes read."""

from __future__ import annotations

import abc
import ast
import linecache
from collections.abc import Callable
from dataclasses import dataclass, field

from deploy.rewriters import sites
from deploy.rewriters.analysis import _live_before_stmt, _target_names, assigned_names, live_before

RUNTIME = "_deploy_rt"  # the name the generated code uses for deploy.rewriters.runtime

# Generated helpers (branch/body functions, value temporaries): never branch outputs or loop state.
_HELPER_PREFIXES = ("_deploy_then_", "_deploy_else_", "_deploy_body_", "_deploy_cond_", "_deploy_value_")


def state_names(names: set[str]) -> list[str]:
    """The variables among ``names`` a converted construct must pass in and out (sorted)."""
    return sorted(n for n in names if not n.startswith(_HELPER_PREFIXES))


@dataclass
class Context:
    """One function being converted."""

    file: str
    first_line: int
    lines: list[str]
    site_ids: list[int] = field(default_factory=list)
    callees: list[ast.expr] = field(default_factory=list)  # call targets a user function may hide behind
    counter: int = 0
    rewrote: bool = False  # a pass changed the function without a control-flow site (``w.T``)
    resolve: Callable[[ast.expr], object] | None = None  # call target -> the function it names

    def fresh(self, prefix: str) -> str:
        self.counter += 1
        return f"_deploy_{prefix}_{self.counter}"

    def new_site(self, construct: str, node: ast.AST, what: str, unsupported: str = "") -> int:
        line = getattr(node, "lineno", self.first_line)
        window = sites.source_window(self.lines, line, self.first_line)
        if not window:  # a statement inlined from a helper of the same file (inline_helpers.py)
            window = sites.source_window(linecache.getlines(self.file), line, 1)
        site = sites.new_site(construct, self.file, line, what, window, unsupported)
        self.site_ids.append(site.id)
        return site.id

    def describe(self, node: ast.AST, fallback: ast.AST) -> str:
        """The user's source of a construct's test/header (recorded before any pass ran)."""
        return getattr(node, "_deploy_what", None) or self.source_of(fallback)

    def source_of(self, node: ast.AST) -> str:
        text = getattr(node, "deploy_source", None) or ast.unparse(node)  # as the user wrote it
        return text if len(text) <= 80 else text[:77] + "..."


class Pass(abc.ABC):
    """A named AST pass over one function definition."""

    name = "pass"

    @abc.abstractmethod
    def apply(self, func: ast.FunctionDef, ctx: Context) -> None:
        """Rewrite ``func`` in place."""


BLOCK_FIELDS = ("body", "orelse", "finalbody")
# statements whose `break`/`continue` belong to another loop or scope than the one around them
BREAK_SCOPES = (
    ast.For,
    ast.While,
    ast.AsyncFor,
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.ClassDef,
    ast.Lambda,
)


def map_blocks(node: ast.AST, rewrite: Callable[[ast.stmt], list[ast.stmt] | None]) -> None:
    """Post-order over every statement list under ``node`` (not entering nested functions other
    than ``node`` itself): ``rewrite(stmt)`` returns replacement statements or None to keep it."""
    for field_name in BLOCK_FIELDS:
        block = getattr(node, field_name, None)
        if not isinstance(block, list):
            continue
        new_block: list[ast.stmt] = []
        for stmt in block:
            if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                map_blocks(stmt, rewrite)
                for handler in getattr(stmt, "handlers", []):
                    map_blocks(handler, rewrite)
            replaced = rewrite(stmt)
            new_block.extend([stmt] if replaced is None else replaced)
        setattr(node, field_name, new_block)


def rooted_at_self(node: ast.expr) -> bool:
    """``self`` or an attribute chain on it (``self.draft`` in ``self.draft.encode(x)``)."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name) and node.id == "self"


def rt(attr: str) -> ast.Attribute:
    return ast.Attribute(value=ast.Name(RUNTIME, ast.Load()), attr=attr, ctx=ast.Load())


def call(func: ast.expr, *args: ast.expr, **keywords: ast.expr) -> ast.Call:
    return ast.Call(func=func, args=list(args), keywords=[ast.keyword(k, v) for k, v in keywords.items()])


def name(identifier: str, store: bool = False) -> ast.Name:
    return ast.Name(identifier, ast.Store() if store else ast.Load())


def names_tuple(identifiers: list[str], store: bool = False) -> ast.Tuple:
    return ast.Tuple([name(i, store) for i in identifiers], ast.Store() if store else ast.Load())


def constant(value: object) -> ast.Constant:
    return ast.Constant(value)


def copy_expr(node: ast.expr) -> ast.expr:
    """A fresh copy of an expression (read again elsewhere in the generated code)."""
    return ast.parse(ast.unparse(node), mode="eval").body


def thunk(expr: ast.expr) -> ast.Lambda:
    args = ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[])
    return ast.Lambda(args=args, body=expr)


def function_def(fname: str, params: list[str], body: list[ast.stmt], like: ast.AST) -> ast.FunctionDef:
    args = ast.arguments(
        posonlyargs=[], args=[ast.arg(p) for p in params], kwonlyargs=[], kw_defaults=[], defaults=[]
    )
    node = ast.FunctionDef(name=fname, args=args, body=body or [ast.Pass()], decorator_list=[], returns=None)
    node.type_params = []
    return ast.copy_location(node, like)


def safe_loads(identifiers: list[str], defined: set[str], ctx: Context, like: ast.AST):
    """Statements + expressions reading each variable's current value, or an Undefined marker for a
    variable that may have no value yet (try/except NameError only where definite assignment
    cannot prove it is bound)."""
    stmts: list[ast.stmt] = []
    exprs: list[ast.expr] = []
    for identifier in identifiers:
        if identifier in defined:
            exprs.append(name(identifier))
            continue
        temp = ctx.fresh("value")
        handler = ast.ExceptHandler(
            type=ast.Tuple([name("NameError"), name("UnboundLocalError")], ast.Load()),
            name=None,
            body=[ast.Assign([name(temp, True)], call(rt("Undefined"), constant(identifier)))],
        )
        attempt = ast.Try(
            body=[ast.Assign([name(temp, True)], name(identifier))],
            handlers=[handler],
            orelse=[],
            finalbody=[],
        )
        attempt._deploy_safe_load = (temp, identifier)  # see resolve_unbound_reads
        stmts.append(attempt)
        exprs.append(name(temp))
    for stmt in stmts:
        ast.copy_location(stmt, like)
    return stmts, ast.Tuple(exprs, ast.Load())


def _bound_in(scope: ast.AST) -> set[str]:
    """Names a function binds (parameters, assignments, nested defs, imports), not entering nested
    functions' bodies."""
    bound: set[str] = set()
    if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        args = scope.args
        for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]:
            if arg is not None:
                bound.add(arg.arg)
    stack = list(ast.iter_child_nodes(scope)) if not isinstance(scope, ast.Lambda) else []
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            bound.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
            continue
        elif isinstance(node, ast.Lambda):
            continue
        elif isinstance(node, ast.alias):
            bound.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, ast.arguments):
            continue
        stack.extend(ast.iter_child_nodes(node))
    return bound


def resolve_unbound_reads(func: ast.FunctionDef, outer: set[str]) -> None:
    """After every pass: a generated ``try: v = name except NameError: v = Undefined(name)`` whose
    name no enclosing function binds (and that is not in ``outer``: the function's globals, free
    variables and builtins) can only fail, so it becomes ``v = Undefined(name)``. Left as a read,
    dynamo reports the failed global lookup as an error instead of raising NameError."""

    def walk(node: ast.AST, visible: set[str]) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            visible = visible | _bound_in(node)
            node.body = _unbound_at_top(node)
        for field_name in BLOCK_FIELDS:
            block = getattr(node, field_name, None)
            if isinstance(block, list):
                setattr(node, field_name, [_resolve(stmt, visible) for stmt in block])
        for child in ast.iter_child_nodes(node):
            walk(child, visible)

    def _resolve(stmt: ast.stmt, visible: set[str]) -> ast.stmt:
        load = getattr(stmt, "_deploy_safe_load", None)
        if load is None or load[1] in visible or load[1] in outer:
            return stmt
        return _undefined(load[0], load[1], stmt)

    walk(func, set())


def _unbound_at_top(func: ast.FunctionDef) -> list[ast.stmt]:
    """In the top-level statements of ``func``: a generated read of a name local to ``func`` (not a
    parameter) that no earlier statement assigns is certainly unbound (a loop body function reading a
    variable its first branch assigns), so it becomes ``v = Undefined(name)``."""
    from deploy.rewriters.analysis import assigned_names

    args = func.args
    params = {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg] if a}
    local = _bound_in(func) - params
    if any(isinstance(n, (ast.Global, ast.Nonlocal)) for n in ast.walk(func)):
        return func.body
    assigned: set[str] = set(params)
    body = []
    for stmt in func.body:
        load = getattr(stmt, "_deploy_safe_load", None)
        if load is not None and load[1] in local and load[1] not in assigned:
            stmt = _undefined(load[0], load[1], stmt)
        for identifier in _prebound(stmt, local - assigned):
            body.append(_undefined(identifier, identifier, stmt))
            assigned.add(identifier)
        assigned |= assigned_names([stmt])
        body.append(stmt)
    return body


def _undefined(target: str, identifier: str, like: ast.stmt) -> ast.stmt:
    """``target = Undefined(identifier)`` at ``like``'s position."""
    assign = ast.Assign([name(target, True)], call(rt("Undefined"), constant(identifier)))
    return ast.fix_missing_locations(ast.copy_location(assign, like))


def _prebound(stmt: ast.stmt, unassigned: set[str]) -> list[str]:
    """Names that generated reads inside a Python loop (or other compound statement kept as Python)
    may find unbound on a first pass: `peaks` assigned in a loop over an nn.ModuleList with a tensor
    `break`. They start as Undefined before the statement, because dynamo, tracing such a function
    inside a branch, cannot catch the NameError of the guarded read."""
    if not isinstance(stmt, (ast.For, ast.While, ast.If, ast.With, ast.Try)):
        return []
    found: set[str] = set()
    stack = list(ast.iter_child_nodes(stmt))
    while stack:
        node = stack.pop()
        load = getattr(node, "_deploy_safe_load", None)
        if load is not None and load[1] in unassigned:
            found.add(load[1])
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            stack.extend(ast.iter_child_nodes(node))
    return sorted(found)


def annotate(func: ast.FunctionDef) -> None:
    """Store on every If/While/For under ``func``: ``_live_after`` (names possibly read after it) and
    ``_defined`` (names certainly bound before it)."""
    params = {a.arg for a in func.args.posonlyargs + func.args.args + func.args.kwonlyargs}
    for extra in (func.args.vararg, func.args.kwarg):
        if extra is not None:
            params.add(extra.arg)
    _annotate_block(func.body, set(), params)


def _annotate_block(stmts: list[ast.stmt], live_after: set[str], defined: set[str]) -> set[str]:
    """Annotates and returns the names defined after the block."""
    lives = []
    live = set(live_after)
    for stmt in reversed(stmts):
        lives.append(live)
        live = _live_before_stmt(stmt, live)
    lives.reverse()
    defined = set(defined)
    for stmt, live_out in zip(stmts, lives):
        if isinstance(stmt, (ast.If, ast.While, ast.For)):
            stmt._live_after = live_out
            stmt._defined = set(defined)
        if isinstance(stmt, ast.If):
            then_defined = _annotate_block(stmt.body, live_out, defined)
            else_defined = _annotate_block(stmt.orelse, live_out, defined)
            defined |= then_defined & else_defined
        elif isinstance(stmt, (ast.While, ast.For)):
            head_live = _live_before_stmt(stmt, live_out)
            stmt._head_live = head_live
            inner = set(defined)
            if isinstance(stmt, ast.For):
                _target_names(stmt.target, inner)
            _annotate_block(stmt.body, head_live, inner)
            _annotate_block(stmt.orelse, live_out, defined)
        else:
            for field_name in BLOCK_FIELDS:
                block = getattr(stmt, field_name, None)
                if isinstance(block, list) and not isinstance(stmt, (ast.FunctionDef, ast.ClassDef)):
                    _annotate_block(block, live_out, defined)
            defined |= assigned_names([stmt])
    return defined


def loop_head_live(loop: ast.stmt) -> set[str]:
    """Names live at the head of an annotated loop (read by its test/body or after it)."""
    if hasattr(loop, "_head_live"):
        return loop._head_live  # computed on the source before other passes added functions
    return _live_before_stmt(loop, getattr(loop, "_live_after", set()))


__all__ = ["Context", "Pass", "annotate", "live_before", "map_blocks", "loop_head_live"]
