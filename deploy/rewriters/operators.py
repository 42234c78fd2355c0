"""Runtime operators the rewritten `if`/ternary/`and`/`or`/`not` call (AutoGraph-style dispatch).

Each operator looks at the predicate *per call*: a plain Python value (config flag,
``self.training``, a static size, anything while running eagerly) runs the plain Python
construct; a tensor or symbolic size while exporting emits ``torch.cond``. The branch functions
are traced by torch (dynamo) inside cond, so nothing here may have Python side effects on that
path; non-tensor branch outputs cross the cond encoded as ints (see values.py).
"""

from __future__ import annotations

import torch
from torch.fx.experimental.symbolic_shapes import free_unbacked_symbols
from torch.utils import _pytree as pytree

from deploy.errors import NotDeployableError
from deploy.rewriters import optional_returns, sites
from deploy.rewriters.branch_placeholders import shaped_like, with_placeholders
from deploy.rewriters.branch_probes import branch_outputs, probe_select, without_constants
from deploy.rewriters.closures import unbacked_closures_as_tensors
from deploy.rewriters.error_text import (
    _friendly,
    _nested_deploy_error,
    _user_name,
    marked_site_error,
)
from deploy.rewriters.foreign_symbols import distinct_unbacked_names
from deploy.rewriters.int_outputs import (
    differing_ints_as_tensors,
    ints_as_tensors,
    ints_outside_size_cond,
    picked_sizes,
    result_ints_as_tensors,
)
from deploy.rewriters.lifted_symbols import lifted_symbols_made
from deploy.rewriters.logic import truth
from deploy.rewriters.matched_sizes import matched_cond
from deploy.rewriters.placeholder_names import distinct_placeholder_names
from deploy.rewriters.selects import _decode, _encode, select, select_at_top_level
from deploy.rewriters.shape_cond import (
    bound_new_sizes,
    check_bounds,
    probed,
    resized_in_body,
)
from deploy.rewriters.size_branches import (
    is_size_predicate,
    tracing_branches,
)
from deploy.rewriters.size_clamps import clamped_branches, on_unbacked_size
from deploy.rewriters.stacked_outputs import boxed, unboxed
from deploy.rewriters.stride_fallback import STRIDE_CAUSES, selected_sizes, stride_fallback
from deploy.rewriters.table_outputs import table_cond
from deploy.rewriters.trace_state import (
    in_loop_body_now,
    probe_flag_kept,
    resized_flat_now,
    selects_in_body_now,
)
from deploy.rewriters.values import (
    StackedList,
    as_predicate,
    as_tensor_value,
    is_sym_int,
    is_symbolic,
    is_tracing,
)


def emit_cond(pred: object, then_fn, else_fn, site_id: int, names: tuple[str, ...], kind: str):
    """torch.cond over two zero-argument branch functions; errors name the user's line."""
    site = sites.get_site(site_id)
    if site.unsupported:
        return _guarded_cond(pred, then_fn, else_fn, site, kind)

    try:
        result = _cond(pred, then_fn, else_fn)
    except NotDeployableError:
        raise
    except Exception as exc:  # torch raises many internal types here; the user needs one line
        nested = _nested_deploy_error(exc)
        if nested is not None:
            raise nested from exc
        sizes = picked_sizes(exc, pred, then_fn, else_fn)  # branches giving only sizes: no graph op
        if sizes is not None:
            sites.mark_emitted(site_id, kind.replace("->cond", "->sym_ite"))
            return sizes
        matched = matched_cond(exc, pred, then_fn, else_fn, _cond)  # rows a loop left vs a size
        if matched is not None:
            return _emitted(*matched, pred, site_id, kind)
        # a stride check torch cannot decide: a select first (same-shaped outputs stay the same shape)
        stride = any(cause in str(exc) for cause in STRIDE_CAUSES)
        # a test on an unbacked size: torch cannot decide what its branches assume (`diff` of >= 1 rows)
        clampable = is_size_predicate(pred) and (not stride or on_unbacked_size(pred))
        clamped = clamped_branches(pred, then_fn, else_fn) if clampable else None
        if clamped is not None:
            # a branch on a size that fails at the example's size: traced with the sizes it runs at
            then_fn, else_fn = clamped
            try:
                result = _cond(pred, then_fn, else_fn)
            except NotDeployableError:
                raise
            except Exception as again:
                clamped, exc = None, again
        if clamped is None:
            return _fallback(exc, pred, then_fn, else_fn, site, names, kind)
    return _emitted(result, then_fn, else_fn, pred, site_id, kind)


def _emitted(result, then_fn, else_fn, pred, site_id: int, kind: str):
    result = _ints_as_tensors_again(result, pred, then_fn, else_fn)
    sites.mark_emitted(site_id, kind)
    with tracing_branches(pred):
        result = bound_new_sizes(result, then_fn, else_fn, _encode, pred)
    return pytree.tree_map(_decode, result)


def _ints_as_tensors_again(result, pred, then_fn, else_fn):
    """A top-level cond whose branches gave different Python ints (`streak = 0` / `streak += 1`)
    returned them as a new unbacked int, which torch.onnx's decompositions cannot retrace: the
    cond again with those ints as 0-d int64 tensors (the first one is dead code)."""
    if is_size_predicate(pred):  # ints that are sizes stay ints, picked by the size test
        return ints_outside_size_cond(result, pred, then_fn, else_fn, _encode, _cond)
    if torch.compiler.is_dynamo_compiling():
        return result
    if not any(isinstance(v, torch.SymInt) and free_unbacked_symbols(v) for v in pytree.tree_leaves(result)):
        return result
    try:
        converted = differing_ints_as_tensors(pred, then_fn, else_fn, top_level=True)
    except Exception:  # a branch probed outside the cond may fail where the cond's tracing did not
        converted = (then_fn, else_fn)
    if converted == (then_fn, else_fn):  # the ints the cond made new unbacked ones instead
        converted = result_ints_as_tensors(then_fn, else_fn, result)
    if converted == (then_fn, else_fn):
        return result
    try:
        return _cond(pred, *converted)
    except Exception:  # any failure, ours too: keep the cond that worked
        return result


def _cond(pred, then_fn, else_fn):
    # a branch on a dynamic size: see size_branches.py; unbacked sizes read by a branch: closures.py
    # inside dynamo the branches are probed once (branch_probes.py): ints that differ cross the
    # cond as tensors, constants stay out of it
    differing: list = []  # the probed outputs when their structures differ
    outputs = (
        branch_outputs(then_fn, else_fn, differing=differing)
        if torch.compiler.is_dynamo_compiling()
        else None
    )
    if differing:  # `return KING_DIRS` / `return MAN_DIRS`: constant tables of different lengths
        tables = table_cond(pred, then_fn, else_fn, _cond, differing)
        if tables is not None:
            return tables
    if outputs is not None and resized_flat_now():
        encoded = branch_outputs(
            lambda: pytree.tree_map(_encode, then_fn()), lambda: pytree.tree_map(_encode, else_fn())
        )
        resized = resized_in_body(pred, then_fn, else_fn, _encode, _decode, encoded)
        if resized is not None:
            return resized
    then_fn, else_fn = ints_as_tensors(then_fn, else_fn, outputs)
    encoded_then, encoded_else, rebuild = without_constants(
        lambda: pytree.tree_map(_encode, then_fn()), lambda: pytree.tree_map(_encode, else_fn()), outputs
    )
    if encoded_then is None:  # both branches give the same constants: nothing to pick
        return rebuild(())
    with (
        tracing_branches(pred),
        unbacked_closures_as_tensors(then_fn, else_fn),
        distinct_unbacked_names(),
        lifted_symbols_made(),
        distinct_placeholder_names(),
        probe_flag_kept(),
    ):
        return rebuild(torch.cond(as_predicate(pred), encoded_then, encoded_else, ()))


def _fallback(
    exc: BaseException, pred, then_fn, else_fn, site: sites.Site, names: tuple[str, ...], kind: str
):
    """After torch.cond failed: a select or a cond over resized outputs, or the user's error."""
    nested = _nested_deploy_error(exc)
    if nested is not None:
        raise nested from exc
    # `if abs(n - m) > w: w = abs(n - m)`: the sizes picked with no graph op (only after torch.cond
    # refused them: the probes of the branches are not free of effects); these branches are clamped
    sizes = picked_sizes(exc, pred, then_fn, else_fn)
    if sizes is not None:
        sites.mark_emitted(site.id, kind.replace("->cond", "->sym_ite"))
        return sizes
    if not torch.compiler.is_dynamo_compiling() and not is_size_predicate(pred):
        converted = differing_ints_as_tensors(pred, then_fn, else_fn, top_level=True)
        result = None
        if converted != (then_fn, else_fn):  # `decision = 2` / `decision = 1`: the ints as tensors
            try:
                result = _cond(pred, *converted)
            except Exception:  # any failure, ours too: the other fallbacks, then the first error shown
                result = None
        if result is not None:
            sites.mark_emitted(site.id, kind)
            return pytree.tree_map(_decode, result)
    # `return KING_DIRS` / `return MAN_DIRS`: probed only when torch refused outputs of different
    # structures (a probe at the top level is not free of effects)
    # a list a graph loop filled in one branch and a list of values in the other (torch refused the
    # StackedList): the rows on both paths, a data-dependent number of them
    tables, picked = None, _cond
    if "same pytree structure" in str(exc):
        tables = table_cond(pred, then_fn, else_fn, _cond)
    elif "StackedList" in str(exc) and not torch.compiler.is_dynamo_compiling():
        # on a size: both branches at the top level, where a loop over a derived size may run 0 times
        picked = selected_sizes if is_size_predicate(pred) else _cond
        tables = table_cond(pred, boxed(then_fn), boxed(else_fn), picked)
    if tables is not None:
        sites.mark_emitted(site.id, kind if picked is _cond else kind.replace("->cond", "->where"))
        return unboxed(pytree.tree_map(_decode, tables))
    with tracing_branches(pred):
        selected = stride_fallback(exc, pred, then_fn, else_fn, site.id, kind)
    if selected is not None:
        return selected
    selected = select_at_top_level(pred, then_fn, else_fn)
    if selected is not None:
        sites.mark_emitted(site.id, kind.replace("->cond", "->where"))
        return selected
    marked = marked_site_error(exc)
    if marked is not None:
        raise marked from exc
    shown = [_user_name(n) for n in names if _user_name(n)]
    assigned = f" ({', '.join(shown)})" if shown else ""
    raise site.error(
        f"cannot turn this `{site.construct}` on a tensor value into torch.cond: {_friendly(exc)}. "
        f"Both branches must leave the values used afterwards{assigned} as tensors of the same dtype, "
        "rank and structure; give a variable assigned in only one branch a value before the `if`."
    ) from exc


def _guarded_cond(pred, then_fn, else_fn, site: sites.Site, kind: str):
    """A cond whose source holds a construct a graph op cannot run (``outs.append(v)``) in a part
    that may not run at all (under ``if self.training:``): torch.cond is tried as is, with no
    fallback that would run the branches as plain Python. If torch traces the construct, dynamo
    refuses the side effect and the user gets the construct's own message."""
    try:
        result = _cond(pred, then_fn, else_fn)
    except Exception as exc:  # any failure: the construct is the likely cause, and the one to name
        raise site.error(
            f"this `{site.construct}` on a tensor value cannot become torch.cond: {site.unsupported}"
        ) from exc
    sites.mark_emitted(site.id, kind)
    return pytree.tree_map(_decode, result)


def fresh_copies(values: tuple) -> tuple:
    """Tensor values cloned: a graph-op body may run in-place ops (``h += 1``) on its variables, but
    torch's higher-order ops refuse mutation of their inputs."""
    return tuple(v.clone() if isinstance(v, torch.Tensor) else v for v in values)


def _fresh_args(args: tuple):
    """The branches' arguments, made inside each branch: tensors cloned, containers copied (a
    branch appending to a list it was given, ``grades.append(...)``, then changes its own copy,
    which it returns, not a value from outside the cond: passes/conditionals.unsupported_reason)."""
    return lambda: tuple(type(v)(v) if type(v) in (list, dict, set) else v for v in fresh_copies(args))


def if_stmt(
    pred: object, then_fn, else_fn, args: tuple, names: tuple[str, ...], site_id: int, dead_else: bool = False
) -> tuple:
    """``if pred: then else: else`` where the branches take and return the variables they assign.
    ``dead_else``: the else path is one where the function already returned (``if not returned:``),
    so only the result slots matter there; the other values take the then branch's shapes."""
    pred = truth(pred)
    if is_symbolic(pred):
        then_raw, else_raw, names, attach = optional_returns.flagged(then_fn, else_fn, names)
        fresh = _fresh_args(args)
        unbound = sites.get_site(site_id).in_loop
        then_branch = with_placeholders(
            lambda: then_raw(*fresh()), lambda: else_raw(*fresh()), names, unbound
        )
        else_branch = with_placeholders(
            lambda: else_raw(*fresh()), lambda: then_raw(*fresh()), names, unbound
        )
        if dead_else:
            else_branch = shaped_like(else_branch, then_branch, names)
        selected = probe_select(pred, then_branch, else_branch)  # in a probe of an enclosing cond
        if selected is not None:
            return attach(selected)
        if selects_in_body_now() and isinstance(pred, torch.Tensor):
            selected = select(as_predicate(pred), then_branch, else_branch)
            if selected is not None:
                sites.mark_emitted(site_id, "if->where")
                return attach(selected)
        if not any(isinstance(a, StackedList) for a in args):
            try:
                return attach(emit_cond(pred, then_branch, else_branch, site_id, names, "if->cond"))
            except NotDeployableError as exc:  # at the top level only (inside dynamo: RuntimeError)
                if "StackedList" not in str(exc):
                    raise
                # a list a loop in a branch filled (`stops = []` before the `if`): again, as rows
        # lists a graph loop filled cross the cond as their rows (stacked_outputs.py)
        result = emit_cond(pred, boxed(then_branch), boxed(else_branch), site_id, names, "if->cond")
        return attach(unboxed(result))
    taken = bool(pred)
    if not is_tracing():
        sites.record_branch(site_id, "then" if taken else "else", isinstance(pred, torch.Tensor))
    return then_fn(*args) if taken else else_fn(*args)


def if_expr(pred: object, then_thunk, else_thunk, site_id: int) -> object:
    """``a if pred else b``."""
    pred = truth(pred)
    if is_symbolic(pred):
        selected = probe_select(pred, then_thunk, else_thunk)  # in a probe of an enclosing cond
        if selected is not None:
            return selected
        if in_loop_body_now() and isinstance(pred, torch.Tensor) and not _guards_a_size(site_id):
            selected = select(as_predicate(pred), then_thunk, else_thunk)
            if selected is not None:
                sites.mark_emitted(site_id, "ifexp->where")
                return selected
        chosen = _size_choice(pred, then_thunk, else_thunk)
        if chosen is not None:
            return chosen
        return emit_cond(pred, then_thunk, else_thunk, site_id, (), "ifexp->cond")
    taken = bool(pred)
    if not is_tracing():
        sites.record_branch(site_id, "then" if taken else "else", isinstance(pred, torch.Tensor))
    return then_thunk() if taken else else_thunk()


def _guards_a_size(site_id: int) -> bool:
    """A test on a size (``median(live) if live.numel() > 0 else one``) in a loop body whose `if`s
    are conds: its side may fail where the test is false (a median of nothing), so only the side
    taken runs, as eagerly."""
    return sites.get_site(site_id).on_size and not selects_in_body_now()


def _size_choice(pred: object, then_thunk, else_thunk):
    """``k if n >= k else n`` on sizes: a symbolic if-then-else of the two sizes (a graph op cannot
    return a Python int); None when the test or either value is not a size."""
    test = getattr(pred, "_deploy_size_test", None) if is_size_predicate(pred) else None
    if test is None:
        return None
    try:  # a probe first: a tensor-valued side may hold only where its test does (`x[-4]` if n >= 4)
        sizes = [probed(then_thunk, record=False), probed(else_thunk, record=False)]
    except Exception:  # torch's many internal error types: the cond reports the user's line
        return None
    if not all(is_sym_int(v) or type(v) is int for v in sizes):
        return None
    chosen, other = then_thunk(), else_thunk()
    if is_sym_int(chosen) and is_sym_int(other):
        return torch.sym_ite(test, chosen, other)
    picked = torch.where(as_predicate(pred), as_tensor_value(chosen), as_tensor_value(other)).item()
    check_bounds(picked, chosen, other)
    return picked


def python_true(value: object, guard_site: int = 0) -> bool:
    """True only for a truthy Python value: a loop that stays Python stops at a Python ``break`` flag
    and idles through its remaining iterations (under conds) once the flag is a tensor. Stopping
    eagerly counts as the ``else`` of the iteration guard at ``guard_site`` (what the graph runs)."""
    stop = not isinstance(value, torch.Tensor) and not is_symbolic(value) and bool(value)
    if stop and guard_site and not is_tracing():
        sites.record_branch(guard_site, "else", False)
    return stop


def python_predicate(pred: object, site_id: int) -> object:
    """The test of an `if`/loop that must stay plain Python: a tensor predicate while exporting is an
    error naming the user's line and what to change."""
    if is_symbolic(pred):
        site = sites.get_site(site_id)
        reason = site.unsupported or "this statement cannot be converted"
        raise site.error(
            f"this `{site.construct}` depends on a tensor value and cannot be converted: {reason}"
        )
    return pred
