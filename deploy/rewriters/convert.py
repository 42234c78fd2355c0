"""Convert one Python function: read its source, run the pass chain, compile the result under the
user's file name and line numbers (so tracebacks, export stack traces and our errors name the
user's lines), and rebuild it with the same globals and closure.

A function whose source cannot be read, or in which no pass found anything to convert, is
returned unchanged.
"""

from __future__ import annotations

import ast
import builtins
import inspect
import sys
import textwrap
import types
from pathlib import Path

import torch

from deploy.rewriters.passes import CONTROL_FLOW, STRUCTURAL, Context, annotate
from deploy.rewriters.passes.base import RUNTIME, resolve_unbound_reads

_CACHE: dict[types.CodeType, types.FunctionType] = {}
_SITES: dict[types.CodeType, list[int]] = {}
_LIBRARY_ROOTS = tuple(
    str(Path(p).resolve())
    for p in {sys.prefix, sys.base_prefix, sys.exec_prefix, Path(torch.__file__).parent}
)


# Folders whose functions count as user code even though they live in a library (tests point this at
# torch's ExportDB examples, which are written like user models).
EXTRA_USER_PATHS: list[str] = []


def is_user_function(fn: object) -> bool:
    """A plain Python function defined outside the interpreter, site-packages and this package."""
    if not isinstance(fn, types.FunctionType):
        return False
    if any(fn.__code__.co_filename.startswith(p) for p in EXTRA_USER_PATHS):
        return True
    module = getattr(fn, "__module__", "") or ""
    if module.split(".")[0] in ("torch", "deploy", "numpy", "typing", "functools", "builtins"):
        return False
    try:
        path = str(Path(fn.__code__.co_filename).resolve())
    except (OSError, ValueError):
        return False
    return not path.startswith(_LIBRARY_ROOTS) and not fn.__code__.co_filename.startswith("<")


def cached_conversion(fn: object) -> types.FunctionType | None:
    """The converted (or unchanged) version of ``fn`` when it was converted before and needs no
    per-closure rebuild; None otherwise. Only an attribute read, so dynamo can trace it."""
    # an attribute on the function object, not a dict keyed by code objects: dynamo guards on what
    # it reads and cannot write a guard for a code-object key
    return getattr(fn, "_deploy_converted", None)


def sites_of(fn: types.FunctionType) -> list[int]:
    """Site ids created when ``fn`` (and the functions it calls) was converted."""
    return list(_SITES.get(fn.__code__, []))


def convert_function(fn: types.FunctionType) -> types.FunctionType:
    """The converted version of ``fn`` (cached per code object), or ``fn`` when nothing changes."""
    converted = _convert_cached(fn)
    try:
        fn._deploy_converted = converted
    except (AttributeError, TypeError):  # builtins and some C-level functions take no attributes
        pass
    return converted


def _convert_cached(fn: types.FunctionType) -> types.FunctionType:
    code = fn.__code__
    cached = _CACHE.get(code)
    if cached is not None:
        return _rebind(cached, fn) if cached is not fn else fn
    _CACHE[code] = fn  # recursion guard: a recursive function sees itself unconverted while converting
    _SITES[code] = []
    try:
        converted = _convert(fn)
    except (OSError, TypeError, SyntaxError, IndentationError):
        converted = fn  # no source (builtins, lambdas in a REPL, exec'd code): run as is
    except BaseException:
        # a failed conversion leaves no recursion guard behind: the next conversion tries again and
        # raises its error where the function is really called, rather than running it unconverted
        del _CACHE[code], _SITES[code]
        raise
    _CACHE[code] = converted
    return _rebind(converted, fn) if converted is not fn else fn


def _rebind(converted: types.FunctionType, fn: types.FunctionType) -> types.FunctionType:
    if converted.__closure__ is None or not fn.__closure__:
        return converted
    # a closure converted once is rebuilt per closure instance (cells differ between instances)
    return _build(converted.__deploy_tree__, fn, converted.__code__.co_filename)


def _parse(fn: types.FunctionType) -> tuple[ast.FunctionDef, Context]:
    lines, first_line = inspect.getsourcelines(fn)
    file = inspect.getsourcefile(fn) or fn.__code__.co_filename
    tree = ast.parse(textwrap.dedent("".join(lines)))
    func = tree.body[0]
    if not isinstance(func, ast.FunctionDef):
        raise TypeError("not a def")
    func.decorator_list = []
    ast.increment_lineno(tree, first_line - 1)
    _explicit_super(func)
    for node in ast.walk(func):  # what each site prints, taken before any pass rewrites the tests
        if isinstance(node, (ast.If, ast.While, ast.IfExp)):
            node._deploy_what = _short(ast.unparse(node.test))
        elif isinstance(node, ast.For):
            node._deploy_what = _short(f"for {ast.unparse(node.target)} in {ast.unparse(node.iter)}")
    return func, Context(file=file, first_line=first_line, lines=[line.rstrip("\n") for line in lines])


def parsed_user_function(target: object) -> ast.FunctionDef | None:
    """The parsed source of a user function a call names (passes that read a helper's body before
    any conversion); None for anything else or a source that cannot be read."""
    if not is_user_function(target):
        return None
    try:
        return _parse(target)[0]
    except (OSError, TypeError, SyntaxError, IndentationError):
        return None


def _explicit_super(func: ast.FunctionDef) -> None:
    """``super()`` -> ``super(__class__, self)``: the zero-argument form reads the first argument of
    the frame it runs in, which is a branch or loop-body function once a pass has moved it there."""
    params = func.args.posonlyargs + func.args.args
    if not params:
        return
    for node in ast.walk(func):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super":
            if not node.args and not node.keywords:
                node.args = [ast.Name("__class__", ast.Load()), ast.Name(params[0].arg, ast.Load())]


def _short(text: str) -> str:
    return text if len(text) <= 80 else text[:77] + "..."


def _convert(fn: types.FunctionType) -> types.FunctionType:
    func, ctx = _parse(fn)
    return convert_parsed(fn, func, ctx)


def convert_parsed(fn: types.FunctionType, func: ast.FunctionDef, ctx: Context, force: bool = False):
    """The pass chain over ``func`` (``fn``'s parsed source, possibly changed already); ``fn`` itself
    when nothing changed, unless ``force`` (argument_updates: a variant whose returns changed)."""
    ctx.resolve = lambda callee: resolve_callee(fn, callee)
    for unit in STRUCTURAL:
        unit.apply(func, ctx)
    annotate(func)
    for unit in CONTROL_FLOW:
        unit.apply(func, ctx)
    resolve_unbound_reads(func, set(fn.__globals__) | set(fn.__code__.co_freevars) | set(dir(builtins)))
    callee_changed = _convert_callees(fn, ctx)
    _SITES.setdefault(fn.__code__, []).extend(ctx.site_ids)
    if not ctx.site_ids and not callee_changed and not ctx.rewrote and not force:
        return fn
    return _build(func, fn, ctx.file)


def _convert_callees(fn: types.FunctionType, ctx: Context) -> bool:
    """Converts, ahead of tracing, the user functions the calls resolve to (globals and methods of
    ``self``'s class) so no conversion runs while torch traces; says whether any changed."""
    changed = False
    for callee in ctx.callees:
        target = resolve_callee(fn, callee)
        if is_user_function(target):
            converted = convert_function(target)
            _SITES[fn.__code__].extend(sites_of(target))
            changed = changed or converted is not target
    return changed


def resolve_callee(fn: types.FunctionType, callee: ast.expr) -> object:
    """The function a call target in ``fn`` names: a global, or a method of ``self``'s class (its
    function), or what ``super().name`` finds, or the class of a submodule ``self.name`` (as
    ``note_submodules`` saw it); None when it cannot be told from the source."""
    owner = _owner_class(fn)
    if isinstance(callee, ast.Name):
        return fn.__globals__.get(callee.id)
    if isinstance(callee, ast.Attribute) and isinstance(callee.value, ast.Call) and owner is not None:
        return _inherited(owner, callee.attr)  # super().forward(x)
    if isinstance(callee, ast.Attribute) and owner is not None:
        target = inspect.getattr_static(owner, callee.attr, None)
        if target is None and isinstance(callee.value, ast.Name) and callee.value.id == "self":
            return _SUBMODULES.get((owner, callee.attr))  # `self.sub(...)`: the submodule's class
        return getattr(target, "__func__", target)
    return None


_SUBMODULES: dict[tuple[type, str], type | None] = {}  # (owner class, attribute) -> its one module class


def note_submodules(root: object) -> None:
    """Records, for ``self.<attr>(...)`` calls, the class of each submodule attribute in ``root``'s
    tree (None where instances of one class hold different classes there)."""
    for module in root.modules():
        for attr, child in module._modules.items():
            if child is not None:
                key, kind = (type(module), attr), type(child)
                _SUBMODULES[key] = kind if _SUBMODULES.get(key, kind) is kind else None


def _inherited(owner: type, name: str) -> object:
    """What ``super(owner, obj).name`` finds: the first definition after ``owner`` in its MRO."""
    for base in owner.__mro__[1:]:
        if name in vars(base):
            return vars(base)[name]
    return None


def _owner_class(fn: types.FunctionType) -> type | None:
    qualname = fn.__qualname__.split(".")
    if len(qualname) < 2:
        return None
    owner = sys.modules.get(fn.__module__)
    for part in qualname[:-1]:
        owner = getattr(owner, part, None)
        if owner is None:
            return None
    return owner if isinstance(owner, type) else None


def converted_source(fn: types.FunctionType) -> str | None:
    """The source the converter generated for ``fn`` (None when it was left unchanged): for
    ``--dump-graph`` style debugging."""
    converted = _CACHE.get(fn.__code__)
    tree = getattr(converted, "__deploy_tree__", None)
    return ast.unparse(tree) if tree is not None else None


def _returned(func: ast.FunctionDef) -> ast.expr:
    """What the factory returns: the function, or for string returns turned into codes
    (passes/string_returns.py) the function wrapped to give back the literals."""
    name = ast.Name(func.name, ast.Load())
    literals = getattr(func, "_deploy_string_returns", None)
    if not literals:
        return name
    texts = ast.Tuple([ast.Constant(text) for text in literals], ast.Load())
    return ast.Call(
        ast.Attribute(ast.Name(RUNTIME, ast.Load()), "string_returns", ast.Load()), [name, texts], []
    )


def _build(func: ast.FunctionDef, fn: types.FunctionType, file: str) -> types.FunctionType:
    freevars = list(fn.__code__.co_freevars)
    factory = ast.FunctionDef(
        name="_deploy_factory",
        args=ast.arguments(
            posonlyargs=[], args=[ast.arg(v) for v in freevars], kwonlyargs=[], kw_defaults=[], defaults=[]
        ),
        body=[func, ast.Return(_returned(func))],
        decorator_list=[],
        returns=None,
    )
    factory.type_params = []
    module = ast.fix_missing_locations(ast.Module(body=[factory], type_ignores=[]))
    from deploy.rewriters import runtime  # runtime -> calls -> convert: import here, not at the top

    # dynamo resolves a traced function's globals through its module, so the generated code must
    # live in the user's real module namespace: one private name, ``_deploy_rt``, is added there.
    namespace = fn.__globals__
    namespace[RUNTIME] = runtime
    exec(compile(module, file, "exec"), namespace)  # noqa: S102 - compiling the user's own converted source
    factory_fn = namespace.pop("_deploy_factory")
    cells = [cell.cell_contents for cell in (fn.__closure__ or ())]
    converted = factory_fn(*cells)
    converted.__defaults__ = fn.__defaults__
    converted.__kwdefaults__ = fn.__kwdefaults__
    converted.__wrapped__ = fn
    converted.__qualname__ = fn.__qualname__  # dynamo builds source strings from these
    converted.__module__ = fn.__module__
    converted.__deploy_tree__ = func
    return converted
