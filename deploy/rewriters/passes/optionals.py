"""OptionalsToFlags: a variable that starts as ``None`` and is tested with ``is None`` carries a
presence flag beside it.

    best = None                          _deploy_opt_best = None; _deploy_has_best = False
    for c in range(3):                   for c in range(3):
        if s < lo:                           ...
            continue               ->        if _deploy_rt.or_(lambda: _deploy_rt.not_(_deploy_has_best),
        if best is None or s > best:                           lambda: s > _deploy_opt_best):
            best = s                             _deploy_opt_best = s
                                                 _deploy_has_best = _deploy_rt.present(_deploy_opt_best)

Under a tensor ``continue`` (or any tensor `if`) one path leaves ``best`` as None and the other
as a tensor, which no torch.cond can merge. Renamed to ``_deploy_opt_*``, a None on one path takes
zeros shaped like the other path's value (``operators._with_placeholders``), and the flag, merged
as a boolean, answers ``is None``: the placeholder is only read where the flag says a value was
set, as the user's code only read ``best`` where it was not None.

Only local variables that are assigned ``None``, assigned something else, and tested with
``is None`` / ``is not None`` are renamed, and those set to None in one statement with such a
variable (``best_cost, best_rows = None, None``: only ``best_cost`` is tested). Every other local
tested with ``is None`` gets the flag too, set by ``_deploy_rt.present(x)`` where it is assigned:
a callee's result that some of its paths left None carries its own (optional_returns.py).

A variable handed to a helper that tests the matching parameter with ``is None`` counts as tested
(``self._find_block(seats, aisle)``); the call passes ``_deploy_rt.with_presence(value, flag)``,
the value carrying the flag where the flag is a tensor. A parameter tested with ``is None`` keeps
its name and gets its flag from ``present`` when the function starts (``mask=None`` given no
value: a Python False, as before).
"""

from __future__ import annotations

import ast

from deploy.rewriters.passes.base import Context, Pass, call, constant, map_blocks, name, rt

OPTIONAL_PREFIX = "_deploy_opt_"


def _stored(target: ast.expr) -> list[ast.Name]:
    if isinstance(target, ast.Name):
        return [target]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [n for elt in target.elts for n in _stored(elt)]
    return []


def _is_none(node: ast.expr | None) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _assigned(stmt: ast.Assign) -> list[tuple[str, bool]]:
    """(name, is the value None) for each name ``stmt`` stores (element-wise for ``a, b = x, None``)."""
    pairs: list[tuple[str, bool]] = []
    for target in stmt.targets:
        if isinstance(target, ast.Tuple) and isinstance(stmt.value, ast.Tuple):
            if len(target.elts) == len(stmt.value.elts):
                for elt, value in zip(target.elts, stmt.value.elts):
                    pairs += [(n.id, _is_none(value)) for n in _stored(elt)]
                continue
        pairs += [(n.id, _is_none(stmt.value)) for n in _stored(target)]
    return pairs


def _none_test(node: ast.AST) -> tuple[str, bool] | None:
    """(name, negated) for ``name is None`` / ``name is not None``."""
    if (
        isinstance(node, ast.Compare)
        and len(node.ops) == 1
        and isinstance(node.ops[0], (ast.Is, ast.IsNot))
        and isinstance(node.left, ast.Name)
        and _is_none(node.comparators[0])
    ):
        return node.left.id, isinstance(node.ops[0], ast.IsNot)
    return None


def _candidates(func: ast.FunctionDef, passed: set[str]) -> tuple[set[str], set[str]]:
    """(locals to rename: assigned None and something else; every local tested with ``is None``,
    and every parameter). ``passed``: names handed to a helper that tests them with ``is None``."""
    params = {a.arg for a in func.args.posonlyargs + func.args.args + func.args.kwonlyargs}
    set_none, set_other, tested = set(), set(), set(passed)
    for node in ast.walk(func):
        if isinstance(node, ast.Assign):
            for ident, none in _assigned(node):
                (set_none if none else set_other).add(ident)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For)):
            set_other.update(n.id for n in _stored(node.target))
        elif _none_test(node) is not None:
            tested.add(_none_test(node)[0])
    renamed = (set_none & set_other & tested) - params
    renamed |= (_companions(func, renamed) & set_other) - params
    return renamed, ((set_other & tested) - params) | renamed | (tested & params)


def _companions(func: ast.FunctionDef, renamed: set[str]) -> set[str]:
    """Names set to None in one statement with a renamed one (``best, best_cost, best_rows = -1,
    None, None``, only ``best_cost`` tested with ``is None``): the same paths leave them None."""
    out: set[str] = set()
    for node in ast.walk(func):
        if isinstance(node, ast.Assign):
            pairs = _assigned(node)
            if any(ident in renamed and none for ident, none in pairs):
                out.update(ident for ident, none in pairs if none)
    return out


def _tuple_sizes(func: ast.FunctionDef, renamed: set[str]) -> dict[str, int]:
    """{name: k} for the renamed names whose every value but None is a tuple display of ``k``
    entries (``best = (dr, dc)``): renamed ``_deploy_opt_t<k>_best``, so a loop carrying one still
    None knows it becomes a tuple (list_state.result_lists_defined)."""
    sizes: dict[str, set[int]] = {}
    for node in ast.walk(func):
        if not isinstance(node, ast.Assign):
            continue
        for target in node.targets:
            pairs = [(target, node.value)]
            if isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple):
                pairs = (
                    list(zip(target.elts, node.value.elts))
                    if len(target.elts) == len(node.value.elts)
                    else []
                )
            for stored, value in pairs:
                if isinstance(stored, ast.Name) and stored.id in renamed and not _is_none(value):
                    size = len(value.elts) if isinstance(value, ast.Tuple) else 0
                    sizes.setdefault(stored.id, set()).add(size)
    return {i: next(iter(k)) for i, k in sizes.items() if len(k) == 1 and 0 not in k}


class _Rewriter(ast.NodeTransformer):
    def __init__(self, renamed: set[str], flagged: set[str], passed: dict[int, str], sizes: dict[str, int]):
        self.renamed, self.names, self.passed = renamed, flagged, passed
        self.new = {i: OPTIONAL_PREFIX + (f"t{sizes[i]}_" if i in sizes else "") + i for i in renamed}

    def _flags(self, idents: list[str], like: ast.AST, nones: list[bool] | None = None) -> list[ast.stmt]:
        """``_deploy_has_x = False`` after ``x = None``, ``_deploy_has_x = _deploy_rt.present(x)``
        after any other value (a callee's result may carry the flag of paths that gave None)."""
        nones = nones or [False] * len(idents)
        return [
            ast.copy_location(
                ast.Assign(
                    [name(f"_deploy_has_{i}", store=True)],
                    constant(False) if none else call(rt("present"), self._load(i)),
                ),
                like,
            )
            for i, none in zip(idents, nones)
        ]

    def _load(self, ident: str) -> ast.Name:
        return name(self.new.get(ident, ident))

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        test = _none_test(node)
        if test is None or test[0] not in self.names:
            self.generic_visit(node)
            return node
        flag = name(f"_deploy_has_{test[0]}")
        return ast.copy_location(flag if test[1] else call(rt("not_"), flag), node)

    def visit_Call(self, node: ast.Call) -> ast.AST:
        """An optional handed to a helper that tests it: the value with its flag (with_presence)."""

        def handed(arg: ast.expr) -> ast.expr:
            ident = self.passed.get(id(arg))
            if ident not in self.names:
                return arg
            return call(rt("with_presence"), name(ident), name(f"_deploy_has_{ident}"))

        node.args = [handed(a) for a in node.args]
        for keyword in node.keywords:
            keyword.value = handed(keyword.value)
        self.generic_visit(node)  # (renames the value: _deploy_opt_*)
        return node

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id in self.renamed:
            return ast.copy_location(ast.Name(self.new[node.id], node.ctx), node)
        return node

    def visit_Assign(self, node: ast.Assign) -> ast.AST:
        pairs = [(ident, none) for ident, none in _assigned(node) if ident in self.names]
        self.generic_visit(node)
        if not pairs:
            return node
        return [node, *self._flags([p[0] for p in pairs], node, [p[1] for p in pairs])]

    def visit_For(self, node: ast.For) -> ast.AST:
        stored = [n.id for n in _stored(node.target) if n.id in self.names]
        self.generic_visit(node)
        node.body = [*self._flags(stored, node), *node.body]
        return node

    def _flag_after(self, node: ast.stmt, target: ast.expr) -> ast.AST:
        stored = [n.id for n in _stored(target) if n.id in self.names]
        self.generic_visit(node)
        return [node, *self._flags(stored, node)] if stored else node

    def visit_AugAssign(self, node: ast.AugAssign) -> ast.AST:
        return self._flag_after(node, node.target)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> ast.AST:
        return self._flag_after(node, node.target)


class OptionalsToFlags(Pass):
    """``x = None`` ... ``if x is None`` -> a placeholder-filled value and a presence flag."""

    name = "optionals"

    def apply(self, func: ast.FunctionDef, ctx: Context) -> None:
        passed = _passed_to_tests(func, ctx)
        _split_ternaries(func, set(passed.values()))
        renamed, flagged = _candidates(func, set(passed.values()))
        if not flagged:
            return
        rewriter = _Rewriter(renamed, flagged, passed, _tuple_sizes(func, renamed))
        params = [a.arg for a in func.args.posonlyargs + func.args.args + func.args.kwonlyargs]
        first = rewriter._flags([p for p in params if p in flagged], func.body[0])
        func.body = first + [out for stmt in func.body for out in _as_list(rewriter.visit(stmt))]


def _split_ternaries(func: ast.FunctionDef, passed: set[str]) -> None:
    """``aisle = n // 2 if n > 16 else None`` of a name tested with ``is None``: the same as an
    ``if``/``else`` assigning it, which gives it a flag like any other optional (a cond on the size
    test then merges the placeholder with the value; the ternary's None alone could not be merged)."""
    tested = passed | {t[0] for node in ast.walk(func) if (t := _none_test(node)) is not None}

    def split(stmt: ast.stmt) -> list[ast.stmt] | None:
        if not (
            isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.value, ast.IfExp)
        ):
            return None
        target, value = stmt.targets[0], stmt.value
        if not (isinstance(target, ast.Name) and target.id in tested):
            return None
        if not (_is_none(value.body) or _is_none(value.orelse)):
            return None

        def assign(v: ast.expr) -> ast.stmt:
            return ast.copy_location(ast.Assign([name(target.id, store=True)], v), stmt)

        branch = ast.copy_location(ast.If(value.test, [assign(value.body)], [assign(value.orelse)]), stmt)
        return [ast.fix_missing_locations(branch)]

    map_blocks(func, split)


def _passed_to_tests(func: ast.FunctionDef, ctx: Context) -> dict[int, str]:
    """{id(argument): name} for each bare name that may be None here (assigned ``None``, or a ternary
    with a ``None`` side) handed to a user function (``self._find(seats, aisle)``) whose matching
    parameter that function tests with ``is None``. Each callee is parsed once, and only for such
    calls."""
    from deploy.rewriters.convert import parsed_user_function

    if ctx.resolve is None:
        return {}
    maybe_none = {
        ident
        for node in ast.walk(func)
        if isinstance(node, ast.Assign)
        for ident, none in _assigned(node)
        if none or _may_be_none(node.value)
    }
    tested_by: dict[object, tuple[list[str], set[str]]] = {}
    found: dict[int, str] = {}
    for node in ast.walk(func):
        handed = (
            [a for a in (*node.args, *(k.value for k in node.keywords))] if isinstance(node, ast.Call) else []
        )
        if not any(isinstance(a, ast.Name) and a.id in maybe_none for a in handed):
            continue
        target = ctx.resolve(node.func)
        if target not in tested_by:
            callee = parsed_user_function(target)
            tested = {t[0] for n in ast.walk(callee) if (t := _none_test(n)) is not None} if callee else set()
            params = [a.arg for a in callee.args.posonlyargs + callee.args.args] if callee else []
            tested_by[target] = (params, tested)
        params, tested = tested_by[target]
        params = params[1:] if isinstance(node.func, ast.Attribute) else params
        pairs = list(zip(params, node.args)) + [(k.arg, k.value) for k in node.keywords]
        for param, arg in pairs:
            if isinstance(arg, ast.Starred):
                break
            if param in tested and isinstance(arg, ast.Name) and arg.id in maybe_none:
                found[id(arg)] = arg.id
    return found


def _may_be_none(value: ast.expr) -> bool:
    """``None``, or a ternary with ``None`` on a side."""
    if isinstance(value, ast.IfExp):
        return _is_none(value.body) or _is_none(value.orelse)
    return _is_none(value)


def _as_list(node: ast.AST | list) -> list:
    return node if isinstance(node, list) else [node]
