"""CallTreeCalls: route calls through the runtime so control flow is converted along the call
tree, and the few builtins that would force a tensor into a Python value stay symbolic.

- ``helper(x)`` / ``self.method(x)`` / ``super().forward(x)`` -> ``_deploy_rt.call(helper, x)``: converts a user function
  or method on first use (AutoGraph's converted_call); library functions run untouched.
  ``self.sub.method(x)`` -> ``_deploy_rt.call_method(self.sub, "method", x)``: the same when
  ``self.sub`` is a module, a plain call otherwise (a tensor's method).
- ``bool(t)``, ``int(t)``, ``float(t)``, ``len(t)`` -> runtime versions that keep tensors / symbolic sizes
  symbolic while exporting and give the Python value otherwise.
- ``min(a, b)`` / ``max(a, b)`` -> symbolic min/max when a size is symbolic (no specialising compare).
- ``torch.stack(xs)`` / ``torch.cat(xs)`` -> runtime versions that also accept the stacked list a
  converted loop leaves in ``xs``.
- ``torch.tensor(number)`` -> ``torch.full`` while exporting (no ``detach_`` in graph-op bodies);
  ``torch.full(size, v)`` / ``torch.full_like(x, v)`` of a computed ``v`` -> runtime versions that
  expand a tensor ``v`` (torch reads it with ``.item()``); ``torch.linspace(a, b, n)`` over a symbolic ``n`` -> an arange (torch's needs a specialised int);
  ``x.unfold(d, n, k)`` over a symbolic ``n`` -> a gather of the windows (the same reason);
  ``F.avg_pool2d(x, k)`` (max, 1d to 3d) -> a runtime version (a gather, for a symbolic ``k``);
  ``torch.hann_window(n)``, ``torch.fft.rfftfreq(n, d)`` / ``fftfreq`` -> runtime versions (the same).
- ``math.log(n)`` (``sqrt``, ``exp``, ...) of a dynamic size or tensor -> a 0-d tensor (Python's
  would specialise the size).
- ``x.expand(n)`` -> a runtime version (a branch computed but not taken may hold no rows there).
- ``w.T`` / ``w.mT`` -> runtime calls (a permute traced in the body, not a lifted aliasing input).
"""

from __future__ import annotations

import ast
import builtins

from deploy.rewriters.casts import MATH, ROUNDING
from deploy.rewriters.passes.base import Context, Pass, rooted_at_self, rt
from deploy.rewriters.passes.comprehensions import (
    computed_entry,
    entry_cast,
    generator_test,
    kept_entries,
    mapped_sources,
    repeat_count,
)

_CASTS = {
    "bool": "bool_",
    "int": "int_",
    "float": "float_",
    "len": "len_",
    "list": "list_",
    "sum": "sum_",
    "all": "all_",
    "any": "any_",
}
_FORCING = {"bool", "int", "float"}
_STACKERS = {"stack", "cat", "concat", "concatenate"}
_BUILTINS = set(dir(builtins))
_POOLS = {f"{kind}_pool{n}d" for kind in ("avg", "max") for n in (1, 2, 3)}
# ``w.T`` read inside a graph op's body: dynamo lifts the attribute of a closed-over tensor as a
# separate input, a view aliasing ``w`` (refused); as a call it is an op inside the body
_TRANSPOSES = {"T": "transposed", "mT": "matrix_transposed"}


def _is_torch_attr(func: ast.expr, attr: str) -> bool:
    return (
        isinstance(func, ast.Attribute)
        and isinstance(func.value, ast.Name)
        and func.value.id == "torch"
        and func.attr == attr
    )


def _size_factory(func: ast.expr) -> bool:
    """``torch.hann_window`` / ``torch.fft.rfftfreq`` / ``torch.fft.fftfreq`` (size_factories.py)."""
    if _is_torch_attr(func, "hann_window"):
        return True
    return (
        isinstance(func, ast.Attribute)
        and func.attr in ("rfftfreq", "fftfreq")
        and isinstance(func.value, ast.Attribute)
        and func.value.attr == "fft"
        and isinstance(func.value.value, ast.Name)
        and func.value.value.id == "torch"
    )


def _is_one_hot(func: ast.expr, node: ast.Call) -> bool:
    """``F.one_hot(k, n)`` under any alias of torch.nn.functional (checked at run time)."""
    return (
        isinstance(func, ast.Attribute)
        and func.attr == "one_hot"
        and len(node.args) == 2
        and not node.keywords
    )


def _is_pool(func: ast.expr) -> bool:
    """``F.avg_pool2d(x, k)`` (max, 1d to 3d) under any alias of torch.nn.functional (checked at run time)."""
    return (
        isinstance(func, ast.Attribute)
        and func.attr in _POOLS
        and not (isinstance(func.value, ast.Name) and func.value.id == "self")
    )


def _is_math(func: ast.expr, node: ast.Call) -> bool:
    """``math.log(x)`` (``sqrt``, ``exp``, ``ceil``, ...) under any alias of math (checked at run time)."""
    return (
        isinstance(func, ast.Attribute)
        and isinstance(func.value, ast.Name)
        and func.value.id not in ("torch", "F", "np", "numpy")
        and (func.attr in MATH or func.attr in ROUNDING)
        and len(node.args) == 1
        and not node.keywords
    )


def _is_method(func: ast.expr, attr: str) -> bool:
    """``x.attr(...)`` on anything but ``self`` or a module name (checked to be a tensor at run time)."""
    return (
        isinstance(func, ast.Attribute)
        and func.attr == attr
        and not (isinstance(func.value, ast.Name) and func.value.id in ("self", "torch", "F", "np", "numpy"))
    )


def _is_unfold(func: ast.expr, node: ast.Call) -> bool:
    """``x.unfold(dim, size, step)`` on anything but ``self`` (checked to be a tensor at run time)."""
    return (
        isinstance(func, ast.Attribute)
        and func.attr == "unfold"
        and not (isinstance(func.value, ast.Name) and func.value.id == "self")
        and len(node.args) == 3
        and not node.keywords
    )


class _CallRewriter(ast.NodeTransformer):
    def __init__(self, ctx: Context):
        self.ctx = ctx
        self.headers: set[int] = set()

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.op, ast.Mult) and (
            isinstance(node.left, ast.List) or isinstance(node.right, ast.List)
        ):
            values, times = (
                (node.left, node.right) if isinstance(node.left, ast.List) else (node.right, node.left)
            )
            self.ctx.rewrote = True  # `[ABORT] * (n - len(states))`: a count of a data-dependent length
            return ast.copy_location(ast.Call(rt("list_repeat"), [values, times], []), node)
        return node

    def visit_Return(self, node: ast.Return) -> ast.AST:
        self.generic_visit(node)
        value = node.value
        if (
            isinstance(value, ast.Call)
            and isinstance(value.func, ast.Attribute)
            and value.func.attr == "tolist"
            and not value.args
            and not value.keywords
        ):
            # `return deps[:, i].nonzero().flatten().tolist()`: a list of a data-dependent length
            # has no Python form while exporting (list_builtins.returned_list)
            self.ctx.rewrote = True
            node.value = ast.copy_location(ast.Call(rt("returned_list"), [value.func.value], []), value)
        return node

    def visit_ListComp(self, node: ast.ListComp) -> ast.AST:
        count = repeat_count(node)
        if count is not None:
            # `[torch.zeros(()) for _ in range(n_doors)]` of a count the model computes: Python
            # would iterate a data-dependent length (list_builtins.repeated)
            self.generic_visit(node)
            self.ctx.rewrote = True
            make = ast.Lambda(ast.arguments([], [], None, [], [], None, []), node.elt)
            return ast.copy_location(ast.Call(rt("repeated"), [make, count], []), node)
        cast = entry_cast(node)
        kept = kept_entries(node)
        self.generic_visit(node)
        mapped = mapped_sources(node) if cast is None else None  # (its sources converted: range_)
        if kept:
            # `[t for t in thresholds if t > 0]`: which values pass is known only when the model
            # runs (kept_rows.py)
            self.ctx.rewrote = True
            loop = node.generators[0]
            args = ast.arguments([], [ast.arg(loop.target.id)], None, [], [], None, [])
            test = ast.Lambda(args, loop.ifs[0])
            # `[backlog[s] for s in range(3) if work[s] >= 0.05]`: each entry computed from its value
            entry = [ast.Lambda(args, node.elt)] if computed_entry(node) else []
            return ast.copy_location(ast.Call(rt("kept_entries"), [loop.iter, test, *entry], []), node)
        if mapped is not None:
            # `[self.embed(c) for c in chars[:n]]` over a length known only when the model runs:
            # every entry at once (mapped_entries.py)
            self.ctx.rewrote = True
            names, sources = mapped
            args = ast.arguments([], [ast.arg(n) for n in names], None, [], [], None, [])
            return ast.copy_location(
                ast.Call(rt("mapped_entries"), [ast.Lambda(args, node.elt), *sources], []), node
            )
        if cast is None:
            return node
        # `[int(c) for c in crossings]` of a nonzero's positions: Python would iterate a
        # data-dependent length (list_builtins.entries_of)
        self.ctx.rewrote = True
        loop = node.generators[0]
        return ast.copy_location(ast.Call(rt("entries_of"), [loop.iter, ast.Constant(cast)], []), node)

    def visit_For(self, node: ast.For) -> ast.AST:
        if isinstance(node.iter, ast.Call):
            self.headers.add(id(node.iter))  # `for i in range(n)`: a loop the loop passes convert
        self.generic_visit(node)
        return node

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        func = node.func
        if (
            isinstance(func, ast.Name)
            and func.id == "range"
            and 1 <= len(node.args) <= 3
            and not node.keywords
            and id(node) not in self.headers
        ):
            # `order = list(reversed(range(J)))` of a dynamic J: Python's range would fix J
            self.ctx.rewrote = True
            return ast.copy_location(ast.Call(rt("range_"), node.args, []), node)
        tested = generator_test(node)
        if tested is not None:  # `all(state[o] == 0 for o in others)`: each entry's test (generator_tests.py)
            self.ctx.rewrote = True
            return ast.copy_location(tested, node)
        if isinstance(func, ast.Name) and func.id in _CASTS and len(node.args) <= 1 and not node.keywords:
            # `int(idx.item()) // n` in a helper without control flow: Python's int() would guard on
            # the unbacked value (`bool`/`float` likewise force a Python value)
            self.ctx.rewrote = self.ctx.rewrote or func.id in _FORCING
            return ast.copy_location(ast.Call(rt(_CASTS[func.id]), node.args, []), node)
        if isinstance(func, ast.Name) and func.id == "divmod" and len(node.args) == 2 and not node.keywords:
            # `gate, az = divmod(flat, w)` of a tensor (an `int(...)` a graph op's body keeps a tensor)
            return ast.copy_location(ast.Call(rt("divmod_"), node.args, []), node)
        if (
            isinstance(func, ast.Name)
            and func.id in ("min", "max")
            and len(node.args) in (1, 2)
            and not node.keywords
        ):
            # `max(40 - n // 2, 15)` of a dynamic size in a helper without control flow: Python's max
            # compares, a guard the size-branch retry drops, so one side was taken for every size
            self.ctx.rewrote = self.ctx.rewrote or len(node.args) == 2
            return ast.copy_location(ast.Call(rt(func.id + "_"), node.args, []), node)
        if isinstance(func, ast.Name) and func.id == "round" and len(node.args) == 1 and not node.keywords:
            self.ctx.rewrote = True  # `int(round(k * dm * f ** -2))` of the loop's counter in a body
            return ast.copy_location(ast.Call(rt("round_"), node.args, []), node)
        if (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Name)
            and func.value.id == "torch"
            and func.attr in _STACKERS
        ):
            target = "stack" if func.attr == "stack" else "cat"
            # `rows = torch.stack(members)` in a helper without control flow: the list may be one a
            # graph loop carries (a RowList), which only the runtime's stack reads
            self.ctx.rewrote = self.ctx.rewrote or bool(node.args and isinstance(node.args[0], ast.Name))
            return ast.copy_location(ast.Call(rt(target), node.args, node.keywords), node)
        if _is_torch_attr(func, "tensor") and node.args:
            self.ctx.rewrote = True  # `torch.tensor([1.0, 50.0])` in a helper a graph op's body calls
            return ast.copy_location(ast.Call(rt("tensor"), node.args, node.keywords), node)
        if isinstance(func, ast.Attribute) and func.attr == "new_tensor" and len(node.args) == 1:
            self.ctx.rewrote = True  # `white.new_tensor(self.max_white)` in a branch: as torch.tensor
            return ast.copy_location(
                ast.Call(rt("new_tensor"), [func.value, *node.args], node.keywords), node
            )
        if (
            isinstance(func, ast.Attribute)
            and func.attr == "get"
            and len(node.args) == 2
            and not node.keywords
        ):
            self.ctx.rewrote = True  # `ADJUST.get(m, 0.0)` of a dict at a size a converted branch set
            return ast.copy_location(ast.Call(rt("mapping_get"), [func.value, *node.args], []), node)
        if _is_torch_attr(func, "equal") and len(node.args) == 2 and not node.keywords:
            self.ctx.rewrote = True  # `if torch.equal(nxt, board): break` in a helper too
            return ast.copy_location(ast.Call(rt("equal"), node.args, []), node)
        if _is_torch_attr(func, "full_like") or _is_torch_attr(func, "full"):
            if len(node.args) == 2 and not isinstance(node.args[1], ast.Constant):
                self.ctx.rewrote = True  # `torch.full_like(last_used, t)` with the loop's counter
                return ast.copy_location(ast.Call(rt(func.attr), node.args, node.keywords), node)
        if _is_torch_attr(func, "linspace") and len(node.args) == 3:
            self.ctx.rewrote = True  # `torch.linspace(-1, 1, x.shape[1])` in a helper without control flow
            return ast.copy_location(ast.Call(rt("linspace"), node.args, node.keywords), node)
        if _size_factory(func) and node.args:
            self.ctx.rewrote = True  # `torch.hann_window(x.shape[-1])`: torch fixes the window's length
            return ast.copy_location(ast.Call(rt(func.attr), node.args, node.keywords), node)
        if _is_torch_attr(func, "roll") and node.args:
            self.ctx.rewrote = True  # `torch.roll(fb[c], -shift)` by a value of the loop's counter
            return ast.copy_location(ast.Call(rt("roll"), node.args, node.keywords), node)
        if _is_method(func, "roll") and node.args:
            self.ctx.rewrote = True
            return ast.copy_location(ast.Call(rt("roll"), [func.value, *node.args], node.keywords), node)
        if _is_method(func, "expand") and node.args and not node.keywords:
            # `last[-1:].expand(rest)` after a loop in the rest of a function after an early
            # `return`: computed beside that return, the loop ran no rows (branch_guards.expand)
            return ast.copy_location(ast.Call(rt("expand"), [func.value, *node.args], []), node)
        if _is_unfold(func, node):
            self.ctx.rewrote = True  # `frame.unfold(0, T // 2, 1)`: Tensor.unfold fixes its window size
            return ast.copy_location(ast.Call(rt("unfold"), [func.value, *node.args], []), node)
        if _is_pool(func) and node.args:
            self.ctx.rewrote = True  # `F.avg_pool2d(img, factor)` with a factor computed from sizes
            return ast.copy_location(ast.Call(rt("pool"), [func, *node.args], node.keywords), node)
        if _is_math(func, node):
            self.ctx.rewrote = True  # `math.log(context.shape[0])` of a dynamic size: a tensor, not a guard
            return ast.copy_location(ast.Call(rt("math_call"), [func, *node.args], []), node)
        if _is_one_hot(func, node):
            self.ctx.rewrote = True  # `F.one_hot(k, x.shape[0])`: one_hot fixes its class count
            return ast.copy_location(ast.Call(rt("one_hot"), [func, *node.args], []), node)
        if isinstance(func, ast.Name) and func.id in _BUILTINS:
            return node
        is_user_name = isinstance(func, ast.Name) and not func.id.startswith("_deploy_")
        is_self_attr = (
            isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self"
        )
        if (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Attribute)
            and rooted_at_self(func.value)
        ):
            # `self.draft.encode(x)`: converted when `self.draft` is a module (calls.call_method)
            args = [func.value, ast.Constant(func.attr), *node.args]
            return ast.copy_location(ast.Call(rt("call_method"), args, node.keywords), node)
        is_super_attr = (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Call)
            and isinstance(func.value.func, ast.Name)
            and func.value.func.id == "super"
        )
        if is_user_name or is_self_attr or is_super_attr:
            self.ctx.callees.append(func)
            return ast.copy_location(ast.Call(rt("call"), [func, *node.args], node.keywords), node)
        return node

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        self.generic_visit(node)
        if node.attr in _TRANSPOSES and isinstance(node.ctx, ast.Load):
            self.ctx.rewrote = True
            return ast.copy_location(ast.Call(rt(_TRANSPOSES[node.attr]), [node.value], []), node)
        return node

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.ctx, ast.Load) and _is_nonzero_read(node):
            # `torch.nonzero(mask)[-1, 0]` in a helper: a branch computed whether taken or not (a select
            # in a loop body) reads it with the mask empty, where a gather fails (subscripts.py)
            self.ctx.rewrote = True
            return ast.copy_location(ast.Call(rt("nonzero_read"), [node.value, node.slice], []), node)
        return node

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        self.generic_visit(node)
        return node


def _is_nonzero_read(node: ast.Subscript) -> bool:
    """``torch.nonzero(m)[i, ...]`` / ``m.nonzero()[i]`` / ``argwhere`` with ``i`` a constant int."""
    value, index = node.value, node.slice
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)):
        return False
    if value.func.attr not in ("nonzero", "argwhere") or value.keywords:
        return False
    first = index.elts[0] if isinstance(index, ast.Tuple) and index.elts else index
    if isinstance(first, ast.UnaryOp) and isinstance(first.op, ast.USub):
        first = first.operand
    return isinstance(first, ast.Constant) and type(first.value) is int


class CallTreeCalls(Pass):
    """User calls -> converted calls; casts and stacking -> symbolic-friendly versions."""

    name = "call-tree"

    def apply(self, func: ast.FunctionDef, ctx: Context) -> None:
        rewriter = _CallRewriter(ctx)
        func.body = [rewriter.visit(stmt) for stmt in func.body]
