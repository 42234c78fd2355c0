"""PredicateOperators: `and` / `or` / `not` and chained comparisons in the test of an `if`,
`while` or ternary become runtime calls (and ``t.item()`` there, and in ``range(...)`` bounds,
becomes ``_deploy_rt.item(t)``: the 0-d tensor itself while exporting, so the predicate or trip
count stays in the graph; elsewhere ``.item()`` keeps torch's own meaning for torch._check & co.), which short-circuit on Python values and become
logical_and / logical_or / logical_not on tensors (Python's `and` would call bool() on a tensor,
which export refuses).

    if x.sum() > 0 and not y.any():   ->   if _deploy_rt.and_(lambda: x.sum() > 0,
                                                               lambda: _deploy_rt.not_(y.any())):

A single comparison becomes ``_deploy_rt.compare(a, "gt", b)``: the plain comparison, except that a
dynamic size (``x.shape[0] > 1``) is compared as a tensor while exporting. torch.export assumes
dynamic sizes are at least 2 while tracing, so comparing the symbolic size itself would silently
specialise a branch for sizes 0 and 1.
"""

from __future__ import annotations

import ast

from deploy.rewriters.passes.base import RUNTIME, Context, Pass, call, constant, rt, thunk
from deploy.rewriters.passes.comprehensions import TEST_RUNNERS

_COMPARISONS = {ast.Lt: "lt", ast.LtE: "le", ast.Gt: "gt", ast.GtE: "ge", ast.Eq: "eq", ast.NotEq: "ne"}


class _PredicateRewriter(ast.NodeTransformer):
    def visit_BoolOp(self, node: ast.BoolOp) -> ast.AST:
        self.generic_visit(node)
        operator = "and_" if isinstance(node.op, ast.And) else "or_"
        return ast.copy_location(call(rt(operator), *[thunk(v) for v in node.values]), node)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.op, ast.Not):
            return ast.copy_location(call(rt("not_"), node.operand), node)
        return node

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        self.generic_visit(node)
        if len(node.ops) == 1 and _in_literal(node):  # `state in (INSIDE, LEAVING)`
            negated = constant(isinstance(node.ops[0], ast.NotIn))
            options = ast.Tuple(elts=node.comparators[0].elts, ctx=ast.Load())
            return ast.copy_location(call(rt("member"), node.left, options, negated), node)
        if len(node.ops) == 1 and isinstance(node.ops[0], (ast.In, ast.NotIn)):
            # `m in BONUS` of a table: its keys (entries) when m is a size a converted branch set
            negated = constant(isinstance(node.ops[0], ast.NotIn))
            return ast.copy_location(call(rt("member"), node.left, node.comparators[0], negated), node)
        if len(node.ops) == 1:
            operator = _COMPARISONS.get(type(node.ops[0]))
            if operator is None:
                return node
            return ast.copy_location(
                call(rt("compare"), node.left, constant(operator), node.comparators[0]), node
            )
        operands = [node.left, *node.comparators]
        pairs = [
            ast.copy_location(ast.Compare(left=operands[i], ops=[op], comparators=[operands[i + 1]]), node)
            for i, op in enumerate(node.ops)
        ]
        return ast.copy_location(call(rt("and_"), *[thunk(p) for p in pairs]), node)

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        func = node.func
        if _is_runtime(func, "append_if") and len(node.args) == 3:  # the test of `if c: xs.append(v)`
            node.args[1] = _PredicateRewriter().visit(node.args[1])
        if isinstance(func, ast.Attribute) and func.attr == "item" and not node.args and not node.keywords:
            return ast.copy_location(call(rt("item"), func.value), node)
        return node

    def visit_Lambda(self, node: ast.Lambda) -> ast.AST:
        return node


def _in_literal(node: ast.Compare) -> bool:
    """``x in (a, b)`` / ``x not in [a, b]``: membership in a tuple or list written out."""
    return isinstance(node.ops[0], (ast.In, ast.NotIn)) and isinstance(
        node.comparators[0], (ast.Tuple, ast.List)
    )


def _is_runtime(func: ast.expr, attr: str) -> bool:
    return (
        isinstance(func, ast.Attribute)
        and func.attr == attr
        and isinstance(func.value, ast.Name)
        and func.value.id == RUNTIME
    )


def _test_names(func: ast.FunctionDef) -> set[str]:
    """Names read as (part of) the test of an `if`, `while` or ternary (``big`` in ``if big:``)."""
    found: set[str] = set()
    for node in ast.walk(func):
        if isinstance(node, (ast.If, ast.While, ast.IfExp)):
            found.update(n.id for n in ast.walk(node.test) if isinstance(n, ast.Name))
    return found


def _boolean_bool_op(node: ast.expr, truths: frozenset[str] = frozenset()) -> bool:
    """``a or b`` / ``a and b`` whose operands are all truth values: comparisons, ``not x``,
    ``bool(...)``, ``x.any()`` / ``x.all()``, True / False, or such and/or themselves; and names
    in ``truths``."""
    if not isinstance(node, ast.BoolOp):
        return False
    return all(
        _truth_value(v)
        or (isinstance(v, ast.Name) and v.id in truths)
        or (isinstance(v, ast.BoolOp) and _boolean_bool_op(v, truths))
        for v in node.values
    )


def _truth_names(func: ast.FunctionDef) -> frozenset[str]:
    """Names every assignment of which is a truth value (``chest_ok = meas[0] + ease <= row[0]``)."""
    truths: set[str] = set()
    others: set[str] = set()
    for node in ast.walk(func):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            (truths if _truth_value(node.value) else others).add(node.targets[0].id)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)) and isinstance(node.target, ast.Name):
            others.add(node.target.id)
    return frozenset(truths - others)


def _and_of_a_truth(node: ast.expr) -> bool:
    """``a and t``, ``t`` a truth value (``known[i] and bool(values[i] == 0)``): a falsy ``a`` or ``t``,
    so its truth value is numerically its value (False is 0) whatever ``a`` is."""
    return isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And) and _truth_value(node.values[-1])


def _truth_of(node: ast.expr) -> bool:
    """``bool(x)`` (``_deploy_rt.bool_(x)`` once calls are converted), one argument."""
    if not isinstance(node, ast.Call) or node.keywords or len(node.args) != 1:
        return False
    func = node.func
    return (isinstance(func, ast.Name) and func.id == "bool") or _is_runtime(func, "bool_")


def _truth_value(node: ast.expr) -> bool:
    if isinstance(node, ast.Compare) or isinstance(node, ast.BoolOp) and _boolean_bool_op(node):
        return True
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return True
    if isinstance(node, ast.Constant) and isinstance(node.value, bool):
        return True
    if _truth_of(node):
        return True
    if isinstance(node, ast.Call) and not node.keywords:
        func = node.func
        return isinstance(func, ast.Attribute) and func.attr in ("any", "all") and not node.args
    return False


def _list_truth_form(test: ast.expr) -> ast.expr:
    """``len(xs) > 0`` (``>= 1``, ``!= 0``) as ``nonempty(xs)``: for a list the list itself, the same
    truth, and append_if then computes the appended value from at least one row where a converted
    loop left ``xs`` empty (``summarise(members)`` reading ``members[0]``)."""
    if not (
        isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.comparators[0], ast.Constant)
    ):
        return test
    left, op, bound = test.left, type(test.ops[0]), test.comparators[0].value
    if (op, bound) not in ((ast.Gt, 0), (ast.GtE, 1), (ast.NotEq, 0)) or isinstance(bound, bool):
        return test
    if not (isinstance(left, ast.Call) and len(left.args) == 1 and not left.keywords):
        return test
    func = left.func
    is_len = (isinstance(func, ast.Name) and func.id == "len") or _is_runtime(func, "len_")
    return call(rt("nonempty"), left.args[0]) if is_len and isinstance(left.args[0], ast.Name) else test


def _negation(node: ast.expr) -> bool:
    return isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)


class _TestFinder(ast.NodeTransformer):
    def __init__(self, test_names: set[str] = frozenset(), truths: frozenset[str] = frozenset()):
        self.test_names = test_names
        self.truths = truths  # names only ever assigned truth values
        self.changed = False  # a truth value outside a test was rewritten

    def visit_Assign(self, node: ast.Assign) -> ast.AST:
        # `big = h * w > 64 * 64` then `if big:`: the comparison is a test, kept in the graph
        if (
            (
                len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
                and node.targets[0].id in self.test_names
                and (
                    isinstance(node.value, (ast.Compare, ast.BoolOp))
                    or (isinstance(node.value, ast.UnaryOp) and isinstance(node.value.op, ast.Not))
                )
            )
            or _boolean_bool_op(node.value)
            or _and_of_a_truth(node.value)
            or _negation(node.value)
        ):
            # `refer = (grade >= 2) or bool(p > 5)`: an and/or of truth values is one either way,
            # and Python's own would call bool() on a tensor operand; so would `inside = not inside`
            # (a flag a converted loop carries as a tensor)
            node.value = _PredicateRewriter().visit(node.value)
            self.changed = True
        self.generic_visit(node)
        return node

    def visit_Return(self, node: ast.Return) -> ast.AST:
        # `return gap > self.max_gap or dist > self.max_radius` in a helper a loop body calls: the
        # truth value of an and/or of tests, as an assignment's; also of names holding tests
        # (`return chest_ok and (waist_ok or hip_ok)`), and `return known[i] and bool(v == 0)`
        if node.value is not None and (
            _boolean_bool_op(node.value, self.truths) or _and_of_a_truth(node.value) or _negation(node.value)
        ):
            node.value = _PredicateRewriter().visit(node.value)
            self.changed = True
        self.generic_visit(node)
        return node

    def visit_If(self, node: ast.If) -> ast.AST:
        node.test = _PredicateRewriter().visit(node.test)
        self.generic_visit(node)
        return node

    visit_While = visit_If

    def visit_For(self, node: ast.For) -> ast.AST:
        if (
            isinstance(node.iter, ast.Call)
            and isinstance(node.iter.func, ast.Name)
            and node.iter.func.id == "range"
        ):
            node.iter.args = [_PredicateRewriter().visit(a) for a in node.iter.args]
        self.generic_visit(node)
        return node

    def visit_IfExp(self, node: ast.IfExp) -> ast.AST:
        node.test = _PredicateRewriter().visit(node.test)
        self.generic_visit(node)
        return node

    def visit_Call(self, node: ast.Call) -> ast.AST:
        # ``.item()`` outside tests: a float stays a 0-d tensor while exporting (see float_item)
        self.generic_visit(node)
        func = node.func
        if _is_runtime(func, "append_if") and len(node.args) == 3:  # the test of `if c: xs.append(v)`
            node.args[1] = _PredicateRewriter().visit(_list_truth_form(node.args[1]))
        if any(_is_runtime(func, runner) for runner in TEST_RUNNERS):
            # `[l for l in range(4) if l != leg and l != DIAGONAL[leg]]`, `all(s[o] == 0 for o in xs)`:
            # a comprehension's `if`, and a generator's entries under all/any, are tests
            for arg in node.args:
                if isinstance(arg, ast.Lambda):
                    arg.body = _PredicateRewriter().visit(arg.body)
        if _truth_of(node) and isinstance(node.args[0], (ast.BoolOp, ast.UnaryOp)):
            # `tiebreak = bool(games[0] == 6 and games[1] == 6)`: bool() takes the truth value of its
            # argument, as a test does; Python's `and` would call bool() on a tensor operand
            node.args[0] = _PredicateRewriter().visit(node.args[0])
        if isinstance(func, ast.Attribute) and func.attr == "item" and not node.args and not node.keywords:
            return ast.copy_location(call(rt("float_item"), func.value), node)
        return node


class PredicateOperators(Pass):
    """and/or/not/chained comparisons in tests -> runtime operators (see module docstring)."""

    name = "predicate-operators"

    def apply(self, func: ast.FunctionDef, ctx: Context) -> None:
        finder = _TestFinder(_test_names(func), _truth_names(func))
        func.body = [finder.visit(stmt) for stmt in func.body]
        ctx.rewrote = ctx.rewrote or finder.changed
