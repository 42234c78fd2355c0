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

from deploy.rewriters.passes.base import Context, Pass, call, rooted_at_self, rt

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

    def visit_Assign(self, node: ast.Assign) -> None:
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and _literal(node.value):
            self.literals.setdefault(node.targets[0].id, []).append(node.value)
            self.assigned.add(node.targets[0].id)
            return
        target = node.targets[0]
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
        if (
            isinstance(node.ctx, ast.Load)
            and isinstance(node.slice, ast.Name)
            and isinstance(node.value, ast.Attribute)
            and rooted_at_self(node.value)
        ):
            self.keys.setdefault(node.slice.id, []).append(node)
            self.visit(node.value)
            return
        self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> None:
        self.other.add(node.id)

    def generic_visit(self, node: ast.AST) -> None:
        if isinstance(node, _SCOPES):
            self.nested.update(n.id for n in ast.walk(node) if isinstance(n, ast.Name))
            return
        super().generic_visit(node)


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
        for name in sorted(names):
            for test in uses.identity.get(name, []):  # `state is None` of codes: `state == code`
                test.ops = [ast.Eq() if isinstance(test.ops[0], ast.Is) else ast.NotEq()]
            codes: dict[str | None, int] = {}
            for constant in uses.literals[name]:
                constant.value = codes.setdefault(constant.value, len(codes))
            literals = ast.Tuple([ast.Constant(text) for text in codes], ast.Load())
            for read in uses.keys.get(name, []):
                read.deploy_source = ast.unparse(read)  # the site names the user's source
                read.slice = call(rt("string_key"), read.slice, literals)
