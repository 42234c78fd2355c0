"""ListLoopsToRange: a loop over a list the function builds with ``append``, or over any other
name (a tensor's rows: `for row in boxes`), optionally zipped, enumerated or reversed, becomes a
loop over its length (sequences.py):

    drafted = []                              ...
    ... drafted.append(tok) ...               _deploy_seq_1 = drafted
    for i, tok in enumerate(drafted):   ->    for i in range(_deploy_rt.seq_len(_deploy_seq_1)):
        ...                                       tok = _deploy_rt.seq_item(_deploy_seq_1, i)
                                                  ...

An earlier converted loop may have left such a list with a data-dependent length (a StackedList):
iterating it item by item would fix that length while exporting, a range over its length keeps it
(ForRangeToLoop then converts the loop). A Python list gives a Python int: the same Python loop as
before. A loop whose body changes the list it iterates is left alone (Python's iteration over a
growing list has no graph form).
"""

from __future__ import annotations

import ast
import builtins

from deploy.rewriters.analysis import assigned_names
from deploy.rewriters.passes.base import Context, Pass, call, map_blocks, name, rooted_at_self, rt

_GROWING = ("append", "extend", "insert")


def _built_lists(func: ast.FunctionDef) -> set[str]:
    """Names the function assigns a list display and grows with append/extend/insert."""
    displayed, grown = set(), set()
    for node in ast.walk(func):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                pairs = [(target, node.value)]
                if isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple):
                    pairs = list(zip(target.elts, node.value.elts))  # `a, b = [], []`
                displayed.update(
                    t.id
                    for t, v in pairs
                    if isinstance(t, ast.Name) and isinstance(v, (ast.List, ast.ListComp))
                )
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in _GROWING
            and isinstance(node.func.value, ast.Name)
        ):
            grown.add(node.func.value.id)
    return displayed & grown


def _call_of(node: ast.expr, func: str) -> list[ast.expr] | None:
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == func
        and not node.keywords
    ):
        return list(node.args)
    return None


def _mutates(body: list[ast.stmt], names: set[str]) -> bool:
    if names & assigned_names(body):
        return True
    return any(
        isinstance(n, ast.Call)
        and isinstance(n.func, ast.Attribute)
        and isinstance(n.func.value, ast.Name)
        and n.func.value.id in names
        and n.func.attr in (*_GROWING, "pop", "remove", "clear", "reverse", "sort")
        for stmt in body
        for n in ast.walk(stmt)
    )


def _tolist_of(node: ast.expr) -> ast.expr | None:
    """``keep.tolist()`` -> ``keep``: looped over, it is the tensor's entries."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "tolist"
        and not node.args
        and not node.keywords
    ):
        return node.func.value
    return None


def _keep_listed_tensors(func: ast.FunctionDef) -> None:
    """``order = torch.argsort(key).tolist()`` read only by loops over it, ``len(order)`` and
    ``order[k]`` -> ``order = _deploy_rt.seq_of(torch.argsort(key), True)``: the list eagerly, the
    tensor while exporting, where a list would fix its length (a dynamic size) to the example's."""
    assigns: dict[str, list[ast.Assign]] = {}
    for node in ast.walk(func):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            assigns.setdefault(node.targets[0].id, []).append(node)
    allowed: set[int] = set()
    for node in ast.walk(func):
        if isinstance(node, ast.For) and isinstance(node.iter, ast.Name):
            allowed.add(id(node.iter))
        elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
            allowed.add(id(node.value))
        elif _call_of(node, "len") is not None and len(node.args) == 1 and isinstance(node.args[0], ast.Name):
            allowed.add(id(node.args[0]))
    stored = assigned_names(func.body)
    for target, nodes in assigns.items():
        listed = _tolist_of(nodes[0].value) if len(nodes) == 1 else None
        if (
            listed is None
            or sum(1 for n in ast.walk(func) if _stores(n, target)) != 1
            or target not in stored
        ):
            continue
        reads = [
            n
            for n in ast.walk(func)
            if isinstance(n, ast.Name) and n.id == target and isinstance(n.ctx, ast.Load)
        ]
        if reads and all(id(n) in allowed for n in reads):
            nodes[0].value = ast.copy_location(call(rt("seq_of"), listed, ast.Constant(True)), nodes[0].value)
            ast.fix_missing_locations(nodes[0])


def _stores(node: ast.AST, target: str) -> bool:
    return isinstance(node, ast.Name) and node.id == target and isinstance(node.ctx, (ast.Store, ast.Del))


def _loopable(node: ast.expr) -> bool:
    """A name, a subscript (`x[mask]`, `xs[1:]`), a method / torch call (`torch.nonzero(m)`) or a
    call of a function of the user's (`find_segments(labels)`, a list a converted loop filled):
    what it holds is only known when the loop runs (seq_of). Loops over `self.<attr>` (module
    lists) and over builtins' results (`range`) keep their own forms."""
    if isinstance(node, (ast.Name, ast.Subscript)):
        return not rooted_at_self(node.value) if isinstance(node, ast.Subscript) else True
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        return not hasattr(builtins, node.func.id)
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
        return False
    if isinstance(node.func.value, ast.Name) and node.func.value.id == "self":
        # a method of the user's module (`for s, t in self._split(tokens)`: a list a converted loop
        # filled), not nn.Module's own iterators over submodules and parameters
        return node.func.attr not in _MODULE_ITERATORS
    return not rooted_at_self(node.func)


def _split_of(node: ast.expr) -> tuple[ast.expr, ast.expr, int] | None:
    """``x.split(k)`` / ``torch.split(x, k)`` (dim a constant >= 0, 0 by default): (x, k, dim)."""
    if not (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "split"
    ):
        return None
    args = list(node.args)
    owner = node.func.value
    if isinstance(owner, ast.Name) and owner.id == "torch":
        if not args:
            return None
        owner, args = args[0], args[1:]
    elif rooted_at_self(owner):
        return None
    dims = [k.value for k in node.keywords if k.arg == "dim"]
    if len(args) == 2:
        dims.append(args[1].value if isinstance(args[1], ast.Constant) else None)
    elif len(args) != 1 or any(k.arg not in ("dim", "split_size") for k in node.keywords):
        return None
    size = args[0]
    dim = dims[0] if dims else 0
    if isinstance(dim, ast.Constant):
        dim = dim.value
    if type(dim) is not int or dim < 0 or isinstance(size, (ast.List, ast.Tuple)):
        return None
    return owner, size, dim


def _split_loop(loop: ast.For, ctx: Context) -> list[ast.stmt] | None:
    """``for chunk in x.split(k):`` (chunks of ``k`` along a dim, the last shorter) -> a loop over
    the chunk starts reading ``x[s : s + k]``: over a dynamic size, the chunked loop of
    ``range(0, n, k)`` (loops.py); ``torch.split`` would give a tuple whose count is fixed at the
    example's size. ``k`` must be an int (``split_step``)."""
    found = _split_of(loop.iter)
    if found is None or not isinstance(loop.target, ast.Name):
        return None
    owner, size, dim = found
    seq, step, start = ctx.fresh("seq"), ctx.fresh("step"), ctx.fresh("k")
    window = ast.Slice(lower=name(start), upper=ast.BinOp(name(start), ast.Add(), name(step)))
    index = window if dim == 0 else ast.Tuple([ast.Slice()] * dim + [window], ast.Load())
    take = ast.Assign([loop.target], ast.Subscript(name(seq), index, ast.Load()))
    shape = ast.Subscript(ast.Attribute(name(seq), "shape", ast.Load()), ast.Constant(dim), ast.Load())
    new_loop = ast.For(
        target=name(start, True),
        iter=call(name("range"), ast.Constant(0), shape, name(step)),
        body=[take, *loop.body],
        orelse=[],
    )
    stmts = [
        ast.Assign([name(seq, True)], owner),
        ast.Assign([name(step, True)], call(rt("split_step"), size)),
        new_loop,
    ]
    for stmt in stmts:
        ast.copy_location(stmt, loop)
        ast.fix_missing_locations(stmt)
    new_loop._deploy_what = ctx.source_of(loop.iter)
    return stmts


_MODULE_ITERATORS = frozenset(
    name for base in ("children", "modules", "parameters", "buffers") for name in (base, f"named_{base}")
)


class ListLoopsToRange(Pass):
    """`for v in xs` / `zip(xs, ys)` / `enumerate(xs)` / `reversed(xs)` over built lists -> a range."""

    name = "list-loops-to-range"

    def apply(self, func: ast.FunctionDef, ctx: Context) -> None:
        _keep_listed_tensors(func)
        lists = _built_lists(func)
        map_blocks(func, lambda stmt: self.rewrite(stmt, lists, ctx) if isinstance(stmt, ast.For) else None)

    def rewrite(self, loop: ast.For, lists: set[str], ctx: Context) -> list[ast.stmt] | None:
        if loop.orelse:
            return None
        chunks = _split_loop(loop, ctx)
        if chunks is not None:
            return chunks
        iterable, target, index = loop.iter, loop.target, None
        args = _call_of(iterable, "enumerate")
        if args is not None and len(args) == 1 and isinstance(target, ast.Tuple) and len(target.elts) == 2:
            if not isinstance(target.elts[0], ast.Name):
                return None
            iterable, index, target = args[0], target.elts[0].id, target.elts[1]
        reverse = _call_of(iterable, "reversed")
        if reverse is not None and len(reverse) == 1 and index is None:
            iterable = reverse[0]
        zipped = _call_of(iterable, "zip")
        if zipped is not None:
            if not (isinstance(target, ast.Tuple) and len(target.elts) == len(zipped) >= 1):
                return None
            seqs, targets = zipped, list(target.elts)
        else:
            seqs, targets = [iterable], [target]
        listed = [_tolist_of(s) for s in seqs]  # `for i in keep.tolist()`: the tensor's entries
        seqs = [s if t is None else t for s, t in zip(seqs, listed)]
        named = {s.id for s in seqs if isinstance(s, ast.Name)}
        # (anything listed with `.tolist()` is a tensor's entries: `(keep.nonzero() + 1).tolist()`)
        loopable = all(_loopable(s) or t is not None for s, t in zip(seqs, listed))
        if not loopable or _mutates(loop.body, named):
            return None
        copies = [ctx.fresh("seq") for _ in seqs]
        counter = index or ctx.fresh("k")
        length = call(rt("seq_len"), *[name(c) for c in copies])
        if reverse is not None and index is None:
            bounds = [ast.BinOp(length, ast.Sub(), ast.Constant(1)), ast.Constant(-1), ast.Constant(-1)]
        else:
            bounds = [length]
        takes = [
            ast.Assign([t], call(rt("seq_item"), name(c), name(counter))) for t, c in zip(targets, copies)
        ]
        new_loop = ast.For(
            target=name(counter, True),
            iter=call(name("range"), *bounds),
            body=[*takes, *loop.body],
            orelse=[],
        )
        # a name that is not a list built here may hold a tensor (`for row in x`): its rows, over a
        # size that stays dynamic; anything else iterable is what Python iterates
        sources = [
            s
            if isinstance(s, ast.Name) and s.id in lists and t is None
            else call(rt("seq_of"), s, ast.Constant(t is not None))
            for s, t in zip(seqs, listed)
        ]
        stmts = [ast.Assign([name(c, True)], source) for c, source in zip(copies, sources)] + [new_loop]
        for stmt in stmts:
            ast.copy_location(stmt, loop)
            ast.fix_missing_locations(stmt)
        new_loop._deploy_what = ctx.source_of(loop.iter)
        return stmts
