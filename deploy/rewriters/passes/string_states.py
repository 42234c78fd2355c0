"""StringStatesToCodes: a variable that only ever holds string literals and is only compared with
them (a state machine's `phase = "up"` ... `if phase == "up" and angle < 90:`) holds int codes
instead, so a converted loop or branch can carry it (graph ops carry tensors and numbers, not
strings).

    phase = "idle"                                phase = 0
    for t in range(x.shape[0]):                   for t in range(x.shape[0]):
        if phase == "idle" and v[t] > 0.5:   ->       if phase == 0 and v[t] > 0.5:
            phase = "up"                                  phase = 1

Every read must be `==` / `!=` / `in` / `not in` against literals, or a key into a container of
the module (`self.heads[script](h)`, an ``nn.ModuleDict`` keyed by the state: the key becomes
``_deploy_rt.string_key(script, ("cjk", "latin"))``, the literal of the code, and while exporting
with a code the model computes an entry picked among the literals' entries: choice.py). Then no
code can tell the codes from the strings. A variable returned, printed or passed anywhere else is
left alone.
"""

from __future__ import annotations

import ast

from deploy.rewriters.analysis import assigned_names
from deploy.rewriters.passes.base import Context, Pass, call, rooted_at_self, rt
from deploy.rewriters.passes.string_returns import returned_literals

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _literal(node: ast.AST) -> bool:
    """A string literal, or None (a state machine's "no token yet": ``state = None``)."""
    return isinstance(node, ast.Constant) and (isinstance(node.value, str) or node.value is None)


def _literals(node: ast.AST) -> list[ast.Constant] | None:
    """The string literals ``node`` is (one, or a tuple/list/set display of them); else None."""
    if _literal(node):
        return [node]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)) and node.elts and all(_literal(e) for e in node.elts):
        return list(node.elts)
    return None


class _Uses(ast.NodeVisitor):
    """For each name: the literals it is assigned and compared with; names used otherwise."""

    def __init__(self):
        self.literals: dict[str, list[ast.Constant]] = {}
        self.assigned: set[str] = set()
        self.other: set[str] = set()
        self.nested: set[str] = set()
        self.keys: dict[str, list[ast.Subscript]] = {}  # `self.heads[name]` reads
        self.identity: dict[str, list[ast.Compare]] = {}  # `state is None` tests
        self.results: dict[str, list[ast.Assign]] = {}  # `mode = next_mode(mode, t)`
        self.passed: dict[str, list[tuple[ast.Call, int]]] = {}  # positional arguments of calls
        self.module_keys: dict[str, list[ast.Subscript]] = {}  # `COOLING[mode]`, COOLING a global

    def visit_Assign(self, node: ast.Assign) -> None:
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and _literal(node.value):
            self.literals.setdefault(node.targets[0].id, []).append(node.value)
            self.assigned.add(node.targets[0].id)
            return
        target = node.targets[0]
        if len(node.targets) == 1 and isinstance(target, ast.Name) and isinstance(node.value, ast.Call):
            self.results.setdefault(target.id, []).append(node)
            self.assigned.add(target.id)
            self.visit(node.value)
            return
        if (  # `state, value = "number", c - 48`: each literal entry as its own assignment
            len(node.targets) == 1
            and isinstance(target, ast.Tuple)
            and isinstance(node.value, ast.Tuple)
            and len(target.elts) == len(node.value.elts)
            and all(isinstance(t, ast.Name) for t in target.elts)
        ):
            for name_node, value in zip(target.elts, node.value.elts):
                self.assigned.add(name_node.id)
                if _literal(value):
                    self.literals.setdefault(name_node.id, []).append(value)
                else:
                    self.other.add(name_node.id)
                    self.visit(value)
            return
        self.generic_visit(node)

    def visit_Compare(self, node: ast.Compare) -> None:
        if (
            isinstance(node.left, ast.Name)
            and len(node.ops) == 1
            and isinstance(node.ops[0], (ast.Eq, ast.NotEq, ast.In, ast.NotIn, ast.Is, ast.IsNot))
            and _literals(node.comparators[0]) is not None
        ):
            literals = _literals(node.comparators[0])
            if isinstance(node.ops[0], (ast.Is, ast.IsNot)):
                if literals[0].value is not None:
                    self.generic_visit(node)
                    return
                self.identity.setdefault(node.left.id, []).append(node)
            self.literals.setdefault(node.left.id, []).extend(literals)
            return
        self.generic_visit(node)

    def visit_Subscript(self, node: ast.Subscript) -> None:
        if isinstance(node.ctx, ast.Load) and isinstance(node.slice, ast.Name):
            if isinstance(node.value, ast.Attribute) and rooted_at_self(node.value):
                self.keys.setdefault(node.slice.id, []).append(node)
                self.visit(node.value)
                return
            if isinstance(node.value, ast.Name):
                self.module_keys.setdefault(node.slice.id, []).append(node)
                self.visit(node.value)
                return
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        self.visit(node.func)
        for i, arg in enumerate(node.args):
            if isinstance(arg, ast.Name):
                self.passed.setdefault(arg.id, []).append((node, i))
            else:
                self.visit(arg)
        for keyword in node.keywords:
            self.visit(keyword.value)

    def visit_Name(self, node: ast.Name) -> None:
        self.other.add(node.id)

    def generic_visit(self, node: ast.AST) -> None:
        if isinstance(node, _SCOPES):
            self.nested.update(n.id for n in ast.walk(node) if isinstance(n, ast.Name))
            return
        super().generic_visit(node)


def _helper(ctx: Context, callee: ast.expr) -> tuple[ast.FunctionDef, bool] | None:
    """The parsed user function a call names, and whether it is a method of ``self``."""
    from deploy.rewriters.convert import parsed_user_function

    func = parsed_user_function(ctx.resolve(callee) if ctx.resolve is not None else None)
    return (func, isinstance(callee, ast.Attribute)) if func is not None else None


def _compares_only(func: ast.FunctionDef, param: str) -> bool:
    """``param`` is compared with literals in ``func``, and otherwise at most returned."""
    compared, allowed = False, set()
    for node in ast.walk(func):
        if isinstance(node, ast.Compare) and isinstance(node.left, ast.Name) and node.left.id == param:
            if len(node.ops) == 1 and _literals(node.comparators[0]) is not None:
                compared = True
                allowed.add(id(node.left))
        elif isinstance(node, ast.Return) and isinstance(node.value, ast.Name) and node.value.id == param:
            allowed.add(id(node.value))
    names = [n for n in ast.walk(func) if isinstance(n, ast.Name) and n.id == param]
    return compared and all(id(n) in allowed for n in names)


def _helper_literals(ctx: Context, uses: _Uses, local: set[str], name: str) -> list[str] | None:
    """The literals the helpers ``name`` goes through may give back; None when one of them (or a
    module container keyed by it) could see the code where it needs the string."""
    found: list[str] = []
    for assign in uses.results.get(name, []):  # `mode = next_mode(mode, t)`
        helper = _helper(ctx, assign.value.func)
        given = returned_literals(helper[0]) if helper is not None else None
        if given is None:
            return None
        found += given
    for call_node, position in uses.passed.get(name, []):  # `next_mode(mode, t)`
        helper = _helper(ctx, call_node.func)
        if helper is None:
            return None
        params = [a.arg for a in helper[0].args.args][1 if helper[1] else 0 :]
        if position >= len(params) or not _compares_only(helper[0], params[position]):
            return None
    for read in uses.module_keys.get(name, []):  # `COOLING[mode]`, a module dict
        table = ctx.resolve(read.value) if read.value.id not in local else None
        if not (isinstance(table, dict) and table and all(isinstance(k, str) for k in table)):
            return None
    return found


class StringStatesToCodes(Pass):
    """String-literal state variables -> int codes (see module docstring)."""

    name = "string-states-to-codes"

    def apply(self, func: ast.FunctionDef, ctx: Context) -> None:
        uses = _Uses()
        for stmt in func.body:
            uses.visit(stmt)
        params = {a.arg for a in func.args.args + func.args.kwonlyargs + func.args.posonlyargs}
        # assigned here (a module constant compared with a literal stays a string)
        names = (set(uses.literals) & uses.assigned) - uses.other - uses.nested - params
        # at least one string (a variable only ever None is an optional: passes/optionals.py)
        names = {n for n in names if any(isinstance(c.value, str) for c in uses.literals[n])}
        local = assigned_names(func.body)
        extra = {n: _helper_literals(ctx, uses, local, n) for n in names}
        names = {n for n in names if extra[n] is not None}
        keyed: dict[int, ast.expr] = {}
        for name in sorted(names):
            for test in uses.identity.get(name, []):  # `state is None` of codes: `state == code`
                test.ops = [ast.Eq() if isinstance(test.ops[0], ast.Is) else ast.NotEq()]
            codes: dict[str | None, int] = {}
            for constant in uses.literals[name]:
                constant.value = codes.setdefault(constant.value, len(codes))
            for text in extra[name]:
                codes.setdefault(text, len(codes))
            literals = ast.Tuple([ast.Constant(text) for text in codes], ast.Load())
            for assign in uses.results.get(name, []):
                assign.value = call(rt("string_code"), assign.value, literals)
            for call_node, position in uses.passed.get(name, []):
                call_node.args[position] = call(rt("string_key"), call_node.args[position], literals)
            for read in uses.module_keys.get(name, []):
                keyed[id(read)] = call(
                    rt("getitem"), read.value, call(rt("string_key"), read.slice, literals)
                )
            for read in uses.keys.get(name, []):
                read.deploy_source = ast.unparse(read)  # the site names the user's source
                read.slice = call(rt("string_key"), read.slice, literals)
        if keyed:
            _KeyedReads(keyed).visit(func)


class _KeyedReads(ast.NodeTransformer):
    """Each module-dict read of a string state -> its runtime getitem (a StringKey is no dict key)."""

    def __init__(self, keyed: dict[int, ast.expr]):
        self.keyed = keyed

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        self.generic_visit(node)
        new = self.keyed.get(id(node))
        return ast.copy_location(new, node) if new is not None else node
