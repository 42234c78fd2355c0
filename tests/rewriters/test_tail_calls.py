"""TailCallsToLoop: a function returning a call of itself becomes a loop; other recursion stays."""

from __future__ import annotations

import ast
import textwrap

import pytest

from deploy.rewriters.passes import Context
from deploy.rewriters.passes.tail_calls import TailCallsToLoop


def _apply(source: str) -> ast.FunctionDef:
    func = ast.parse(textwrap.dedent(source)).body[0]
    TailCallsToLoop().apply(func, Context(file="f.py", first_line=1, lines=source.splitlines()))
    return func


def _run(func: ast.FunctionDef, *args):
    scope: dict = {}
    exec(compile(ast.fix_missing_locations(ast.Module([func], [])), "f.py", "exec"), scope)
    return scope[func.name](*args)


GCD = """
def gcd(a, b, steps=0):
    "Euclid, counting steps."
    if b == 0:
        return a, steps
    return gcd(b, a % b, steps=steps + 1)
"""


def test_a_tail_call_becomes_the_parameters_rebound_in_a_loop():
    func = _apply(GCD)
    assert isinstance(func.body[0], ast.Expr) and isinstance(func.body[1], ast.While)  # docstring kept
    assert not any(isinstance(n, ast.Call) and getattr(n.func, "id", "") == "gcd" for n in ast.walk(func))
    assert "a, b, steps = (b, a % b, steps + 1)" in ast.unparse(func)
    for a, b in ((12, 18), (7, 0), (1071, 462)):
        assert _run(func, a, b) == _run(ast.parse(textwrap.dedent(GCD)).body[0], a, b)


def test_a_left_out_parameter_takes_its_default_and_a_body_ending_without_return_gives_none():
    source = """
    def walk(self, x, hops=0, limit=4):
        if hops < limit:
            if x > 100:
                return x
            return self.walk(x * 3, hops + 1)
        if x < 0:
            return self.walk(-x)
    """
    func = _apply(source)
    text = ast.unparse(func)
    assert "x, hops, limit = (-x, 0, 4)\n            continue" in text and "continue" in text
    assert isinstance(func.body[0].body[-1], ast.Return)  # the fall-through's `return None`

    class Walker:
        pass

    for method in (func, ast.parse(textwrap.dedent(source)).body[0]):
        scope: dict = {}
        exec(compile(ast.fix_missing_locations(ast.Module([method], [])), "f.py", "exec"), scope)
        Walker.walk = scope["walk"]
        if method is func:
            converted = [Walker().walk(x) for x in (1, 50, -2, 200)]
        else:
            original = [Walker().walk(x) for x in (1, 50, -2, 200)]
    assert converted == original


@pytest.mark.parametrize(
    "source",
    [
        "def f(n):\n    if n < 2:\n        return n\n    return f(n - 1) + f(n - 2)\n",  # not a tail call
        "def f(xs, i):\n    for x in xs:\n        if x > i:\n            return f(xs, x)\n    return i\n",  # in a loop
        "def f(*args):\n    if args:\n        return f(*args[1:])\n    return 0\n",  # *args
        "def f(x):\n    return x + 1\n",  # no recursion
    ],
)
def test_other_functions_are_left_alone(source):
    assert ast.unparse(_apply(source)) == ast.unparse(ast.parse(source).body[0])
