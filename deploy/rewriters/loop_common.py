"""Helpers every converted loop shares: carried values, error messages, the loop-body flag."""

from __future__ import annotations

import contextlib

import torch
from torch._higher_order_ops.while_loop import while_loop
from torch.fx.experimental.symbolic_shapes import free_unbacked_symbols, statically_known_true
from torch.utils import _pytree as pytree

from deploy.errors import NotDeployableError
from deploy.rewriters import operators, sites, trace_state
from deploy.rewriters.branch_guards import guarded_cond
from deploy.rewriters.closures import unbacked_closures_as_tensors
from deploy.rewriters.error_text import _explain, _nested_deploy_error, marked_site_error
from deploy.rewriters.foreign_symbols import distinct_unbacked_names
from deploy.rewriters.lifted_symbols import lifted_symbols_made
from deploy.rewriters.placeholder_names import distinct_placeholder_names
from deploy.rewriters.size_branches import trusted_everywhere
from deploy.rewriters.values import (
    Undefined,
    as_tensor_value,
    is_sym_bool,
    is_sym_int,
    is_symbolic,
    is_tracing,
)


def iterations_label(count: int) -> str:
    return "loop 0 iterations" if count == 0 else "loop 1 iteration" if count == 1 else "loop 2+ iterations"


def range_bounds(bounds: tuple) -> tuple:
    """``(start, stop, step)`` of a ``range(...)`` call's arguments."""
    if len(bounds) == 1:
        return 0, bounds[0], 1
    if len(bounds) == 2:
        return bounds[0], bounds[1], 1
    return bounds


def carry(values: tuple, names: tuple[str, ...], site: sites.Site) -> tuple:
    out = []
    for name, value in zip(names, values):
        if isinstance(value, Undefined):
            raise site.error(
                f"variable {name!r} is assigned inside this loop and read in a later iteration or after "
                "the loop, but has no value before it: initialise it before the loop"
            )
        value = as_tensor_value(value)
        if not isinstance(value, torch.Tensor):
            raise site.error(
                f"loop variable {name!r} holds a {type(value).__name__}; a loop on tensors "
                "can only carry tensors and numbers"
            )
        # views with symbolic strides (x[:, 0] of a dynamic x) trip dynamo inside while_loop; a
        # tensor in two variables (`h = c = zeros(...)`), or one the body also reads as a closure
        # (`h = h0` then `... h0 ...` in the loop), would be a loop input aliasing another: each
        # carried value is a fresh copy
        value = value.contiguous().clone()
        out.append(value)
    return tuple(out)


def clone_all(values) -> tuple:
    """A loop body's results as fresh contiguous tensors, laid out as ``carry`` lays out the loop's
    inputs: torch requires the same strides, and ``state.movedim(q, 0)`` ... ``.movedim(0, q)`` in a
    body gives the same shape with other strides."""
    return tuple(
        as_tensor_value(v).clone(memory_format=torch.contiguous_format)
        if isinstance(as_tensor_value(v), torch.Tensor)
        else v
        for v in values
    )


def loop_error(site: sites.Site, exc: Exception, names: tuple[str, ...]):
    nested = _nested_deploy_error(exc) or marked_site_error(exc)
    if nested is not None:
        return nested
    return site.error(
        f"cannot turn this `{site.construct}` loop into torch.while_loop/scan: {_explain(exc)}. "
        f"Loop variables ({', '.join(names) or 'none'}) must keep their dtype and shape across iterations."
    )


def check_supported(site: sites.Site) -> None:
    if site.unsupported:
        raise site.error(
            f"this `{site.construct}` loop on a tensor value cannot become a graph loop: {site.unsupported}"
        )


def in_loop_body(operator, *args):
    """Run a loop higher-order op with the in-loop-body flag set while torch traces its body."""
    previous = trace_state.set_in_loop_body(True)
    _static_zero_one_dims(args)
    try:
        with (
            unbacked_closures_as_tensors(*(a for a in args if callable(a))),
            distinct_unbacked_names(),
            lifted_symbols_made(),
            distinct_placeholder_names(),
            trace_state.probe_flag_kept(),
            trusted_everywhere(),
        ):
            if operator is while_loop:
                args = (guarded_cond(args[0]), *args[1:])
            state = trace_state.TRACE_STATE
            if torch.compiler.is_dynamo_compiling() or not state.conds_in_body:
                return operator(*args)  # a loop nested in a traced body: as its outer loop does
            functions = torch._C._get_torch_function_state()
            try:
                return operator(*args)
            except Exception as exc:  # torch's many internal error types, a nested site's: again with selects
                trace_state.torch_functions_back(functions)
                if _RESIZED_STRIDES in str(exc):
                    flat = _with_resized_flat(operator, args)
                    if flat is not None:
                        return flat
                state.conds_in_body = False
                try:
                    return operator(*args)
                finally:
                    state.conds_in_body = True
    finally:
        trace_state.set_in_loop_body(previous)


# torch.cond's refusal of differently-sized branch outputs whose strides are not plain products of
# their sizes (``Max(1, h//2)`` after pooling): `if x.shape[-2] > 48: x = avg_pool2d(x, 2)` in a
# helper a loop body calls
_RESIZED_STRIDES = "stride is not a simple accumulative"


def _with_resized_flat(operator, args: tuple):
    """The loop traced again with its body's conds passing resized outputs flattened
    (shape_cond.resized_in_body); None when that fails too (the next retry: selects)."""
    state, functions = trace_state.TRACE_STATE, torch._C._get_torch_function_state()
    state.resized_flat = True
    try:
        return operator(*args)
    except Exception:  # torch's many internal error types: the selects' retry reports its own
        trace_state.torch_functions_back(functions)
        return None
    finally:
        state.resized_flat = False


def _static_zero_one_dims(args: tuple) -> None:
    """The loop's inputs keep their dims of size 0 or 1 static inside the graph op. torch compiles
    the op with every dim of its inputs duck-sized, which specialises 0 and 1 as usual, but not in the
    size-oblivious retry (exporter/export._size_oblivious): there a (1,)-shaped loop variable becomes
    a size symbol inside the loop, and a body that gives it a static shape (`.view(1)` on one branch
    of a cond) no longer matches it. The dims are recorded as `torch._dynamo.mark_static` records them
    (which, while exporting, only forces sizes inside dynamo)."""
    if torch.compiler.is_dynamo_compiling():  # a nested loop: its inputs are the traced body's
        return
    for value in pytree.tree_leaves(args):
        if isinstance(value, torch.Tensor):
            dims = {d for d, size in enumerate(value.shape) if isinstance(size, int) and size in (0, 1)}
            if dims:
                value._dynamo_static_indices = getattr(value, "_dynamo_static_indices", set()) | dims


def to_tensor_predicate(value: object) -> torch.Tensor:
    if isinstance(value, torch.Tensor):
        return value
    if is_sym_bool(value):
        return as_tensor_value(value)
    return torch.full((), bool(value), dtype=torch.bool)


def python_while(cond_fn, step, args: tuple, site_id: int, rest=None) -> tuple[tuple, bool]:
    """``while`` iterations run as plain Python while the test is a Python value; ``step(args)``
    runs one iteration. Returns the values and whether the loop finished (False: the test became
    a tensor, the rest is a graph loop). Eager runs record the iteration count for coverage.
    ``rest(args)``, while exporting, runs the loop from an iteration that cannot run as Python (a
    tensor `if` appending to a Python list: ``if not done: visited.append(state)``) as a graph
    loop: its values, finished; a None from it raises the iteration's error."""
    count = 0
    test = cond_fn(*args)
    tensor_valued = isinstance(test, torch.Tensor)
    while not is_symbolic(test):
        if not test:
            if not is_tracing():
                sites.record_branch(site_id, iterations_label(count), tensor_valued)
            return args, True
        if rest is not None and is_tracing():
            try:
                args = step(args)
            except NotDeployableError:
                values = rest(args)
                if values is None:
                    raise
                return values, True
        else:
            args = step(args)
        count += 1
        sites.check_loop_limit(site_id, count)
        test = cond_fn(*args)
    return args, False


@contextlib.contextmanager
def _as_loop_body_probe():
    """Within: code traced as a loop body traces it (in-loop-body flag set), with guards suppressed
    and its graph ops unlisted (a probe: its nodes are dead)."""
    # inside a body dynamo traces, detect_fake_mode and the probing counter (a global it would
    # mutate) are graph breaks, and dynamo keeps no guards of its own to suppress
    dynamo = torch.compiler.is_dynamo_compiling()
    mode = None if dynamo else torch._guards.detect_fake_mode()
    guards = mode.shape_env.suppress_guards() if mode and mode.shape_env else contextlib.nullcontext()
    previous = trace_state.set_in_loop_body(True)
    try:
        with guards, contextlib.nullcontext() if dynamo else sites.probing():
            yield
    finally:
        trace_state.set_in_loop_body(previous)


def probe_iteration(start, body_fn, carried: tuple) -> tuple[list, list]:
    """One iteration traced as a loop body (a 0-d tensor counter): (carried values, appended values)
    for their shapes and dtypes only."""
    with _as_loop_body_probe():
        index = torch.full((), start, dtype=torch.int64)
        values, appended = body_fn(index, *operators.fresh_copies(tuple(carried)))
    return [as_tensor_value(v) for v in values], [as_tensor_value(v) for v in appended]


def read_once_set(name: str) -> bool:
    """A loop variable only read once set: the value a `return` in the loop gives
    (passes/loop_returns.py) or a variable tested with `is None` (passes/optionals.py: its flag says
    whether it is set)."""
    return name.startswith("_deploy_return_") or name.startswith("_deploy_opt_")


def unset_as_undefined(args: tuple, names: tuple[str, ...], prefixes: tuple[str, ...] = ()) -> tuple:
    """Such variables still None (`lock = None` before the loop) as Undefined, for a placeholder
    shaped by a probe of the body (placeholders_for_undefined); ``prefixes``: those named so only."""

    def unset(value: object, name: str) -> bool:
        return value is None and (name.startswith(prefixes) if prefixes else read_once_set(name))

    return tuple(Undefined(n) if unset(v, n) else v for v, n in zip(args, names))


def placeholders_for_undefined(args: tuple, run) -> tuple:
    """Loop variables with no value before the loop (``cost`` assigned on every path of the body
    that reads it, but not before a ``break`` that skips it) as zeros shaped like the value one
    probed iteration (``run(values)``: the new values) gives them: probed first with a 0-d zero,
    then with zeros of the shape that gave. The eager model never reads such a value before
    assigning it (Python would raise), so no path the graph takes reads the zeros."""
    undefined = [i for i, v in enumerate(args) if isinstance(v, Undefined)]
    if not undefined:
        return args
    # first as they are: a tensor `if` in the body that sets them on one path takes its other
    # path's placeholder from the path that sets them (values.zeros_shaped_like), whatever the
    # dtypes and ranks (`_deploy_last_*` result slots of a `return` in the loop)
    shaped = _shaped_like_probe(run, list(args), undefined)
    if shaped is not None:
        return shaped
    for dtype in (torch.get_default_dtype(), torch.int64, torch.bool):
        # a branch that sets the value beside one that keeps it needs the dtype right at once
        guess = list(args)
        for i in undefined:
            guess[i] = torch.zeros((), dtype=dtype)
        shaped = _shaped_like_probe(run, guess, undefined)
        if shaped is not None:
            return shaped
    return args


def nones_as_placeholders(args: tuple, run) -> tuple:
    """Loop variables still None that the body sets to a tensor (`best, best_cost = -1, None`, then
    `if best < 0 or cost < best_cost: best, best_cost = day, cost`) as placeholders shaped by a
    probe (placeholders_for_undefined). Eager reads them only once set (comparing with None would
    raise); where the graph computes a read eager skips (the other side of an `or`, an untaken
    branch) the result is discarded, and verification compares every path with eager. Those the
    probe cannot shape stay None."""
    nones = [i for i, v in enumerate(args) if v is None]
    if not nones:
        return args
    shaped = placeholders_for_undefined(
        tuple(Undefined(f"_none_{i}") if i in nones else v for i, v in enumerate(args)), run
    )
    return tuple(None if isinstance(v, Undefined) else v for v in shaped)


def _data_dependent_shape(value: torch.Tensor, known: set) -> bool:
    """Whether ``value`` has a data-dependent size other than one the loop's values already have
    (``attn`` of ``(pixels, k)`` beside ``slots[:k]``, k read from the data before the loop): a size
    the probe made is not one the program has before the loop."""
    # inside dynamo (a loop in a body it traces) free symbols cannot be inspected: dynamo checks
    # the loop's carried shapes itself
    return not torch.compiler.is_dynamo_compiling() and not free_unbacked_symbols(value.shape) <= known


def _shaped_like_probe(run, guess: list, undefined: list[int]) -> tuple | None:
    known = set()
    if not torch.compiler.is_dynamo_compiling():
        for i, value in enumerate(guess):
            if i not in undefined and isinstance(value, torch.Tensor):
                known |= free_unbacked_symbols(value.shape)
    for _ in range(2):
        new_values = _probe_values(run, tuple(guess))
        if new_values is None:
            return None
        shaped = list(guess)
        for i in undefined:
            new = as_tensor_value(new_values[i])
            if not isinstance(new, torch.Tensor) or _data_dependent_shape(new, known):
                return None
            shaped[i] = torch.zeros(new.shape, dtype=new.dtype)
        if all(isinstance(guess[i], torch.Tensor) and _same_meta(guess[i], shaped[i]) for i in undefined):
            return tuple(shaped)
        guess = shaped
    return None


def _same_meta(a: torch.Tensor, b: torch.Tensor) -> bool:
    return (
        a.dtype == b.dtype
        and a.dim() == b.dim()
        and all(statically_known_true(x == y) for x, y in zip(a.shape, b.shape))
    )


def _probe_values(run, values: tuple):
    """``run(values)`` traced as a loop body probe; None on failure. Numbers are the tensors the
    loop carries them as (``carry``): a counter's test (`if steps >= max_steps: return pos, ...`) is
    then the cond it is in the loop, whose other path sets the value (a 0 would take the Python
    path that leaves the placeholder as guessed, a 0-d value where the loop returns a vector)."""
    values = tuple(v if isinstance(v, Undefined) else as_tensor_value(v) for v in values)
    try:
        with _as_loop_body_probe():
            return run(operators.fresh_copies(values))
    except Exception:  # torch's many internal error types: the loop reports the variable as before
        return None


def sizes_kept(body_fn):
    """``body_fn`` (index, *values) -> (values, appended) whose carried tensors keep the sizes they
    came in with: torch gives a carried value's data-dependent size a new symbol inside the body
    (``prev`` of ``u5`` rows), and a value rebuilt there from another `.item()` of the same length
    (``torch.stack(cur)`` of ``lb + 1`` rows: ``u1 + 1``) cannot be proved that size. Each symbolic
    dim is read back at the incoming size (a gather of positions ``0 .. size - 1``, clamped): the
    same values wherever the sizes agree, as they must eagerly. Where they do not, a floating
    value becomes NaN, so that a size the loop really changes shows instead of a clamped copy
    that looks right (torch._check(b == a) is not traceable here: dynamo fails on its guard). A
    last resort (loop_operators._graph_or_grown), tried when the loop fails otherwise."""

    def body(index, *values):
        new_values, appended = body_fn(index, *values)
        kept = []
        for old, new in zip(values, new_values):
            if isinstance(old, torch.Tensor) and isinstance(new, torch.Tensor) and old.dim() == new.dim():
                changed = None
                for dim, (a, b) in enumerate(zip(old.shape, new.shape)):
                    if is_sym_int(a):  # (dynamo traces this: no shape-env queries)
                        positions = torch.arange(a, device=new.device).clamp(max=b - 1)
                        new = new.index_select(dim, positions)
                        differs = torch.scalar_tensor(a) != torch.scalar_tensor(b)
                        changed = differs if changed is None else changed | differs
                if changed is not None and new.is_floating_point():
                    new = torch.where(changed, torch.full_like(new, float("nan")), new)
            kept.append(new)
        return type(new_values)(kept) if isinstance(new_values, tuple) else kept, appended

    return body


def unit_steps(start, stop, step, body_fn) -> tuple:
    """``range(start, stop, step)`` whose step is known only at run time (``step = 2 if n > 16
    else 1``) as ``range(0, trips)``, the body given ``start + j * step``: (start, stop, step,
    body_fn) of that loop. The step must be positive, which is checked at run time."""
    if any(isinstance(b, torch.Tensor) for b in (start, stop, step)):
        start, stop, step = (as_tensor_value(b).reshape(()).to(torch.int64) for b in (start, stop, step))
        torch._check((step > 0).item())
        trips = torch.clamp((stop - start + step - 1) // step, min=0)
    else:
        torch._check(step > 0)
        trips = torch.sym_max((stop - start + step - 1) // step, 0)

    def stepped(index, *values):
        return body_fn(start + index * step, *values)

    return 0, trips, 1, stepped
