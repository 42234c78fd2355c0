"""torch.export with the user's dynamic shapes, non-strict first, errors mapped to the user's source."""

from __future__ import annotations

import ast
import inspect
import re
import textwrap
from contextlib import contextmanager, nullcontext
from typing import Any

import torch

from deploy.errors import DeployError, NotDeployableError
from deploy.exporter.portable_ops import portable_ops
from deploy.exporter.range_guards import export_with_range_checked_guards
from deploy.exporter.shapes import grow_small_dims, shared_dims_known_equal
from deploy.exporter.silent_guards import unproven_guards
from deploy.exporter.source import innermost_user_frame, source_window, user_frame_in_message
from deploy.oblivious import is_data_dependent, size_oblivious
from deploy.quiet import quiet_torch
from deploy.rewriters import fresh_trace_state, trusting_size_branches
from deploy.rewriters.window_spans import spans_static, static_spans


def export_program(
    module: torch.nn.Module, inputs: tuple, dynamic_shapes: Any = None
) -> tuple[torch.export.ExportedProgram, list[str]]:
    """Export ``module``; returns the program and notes. Failures raise NotDeployableError. Windows
    ``x[t : t + k]`` in loop bodies are first read as Python reads them (shorter past the end); when
    that export fails, again as ``k`` entries each (rewriters/window_spans.py)."""
    if spans_static():
        return _export_program(module, inputs, dynamic_shapes)  # the pipeline's retry (pipeline.py)
    with static_spans(False) as spans:
        try:
            return _export_program(module, inputs, dynamic_shapes)
        except Exception:
            if not spans.asked:
                raise
    with static_spans(True):
        ep, notes = _export_program(module, inputs, dynamic_shapes)
    notes.append(
        "windows x[t : t + k] in loop bodies read as k entries from t (their length could not vary "
        "in the graph); verification against eager checks them where they run past the end"
    )
    return ep, notes


def _export_program(
    module: torch.nn.Module, inputs: tuple, dynamic_shapes: Any = None
) -> tuple[torch.export.ExportedProgram, list[str]]:
    # Dynamo keeps per-code-object state between exports in one process; a second model's dynamic dim
    # can come out specialised because of the first. Each export starts from a clean slate.
    torch._dynamo.reset()
    traced_inputs, notes = grow_small_dims(module, inputs, dynamic_shapes)
    first: BaseException | None = None
    for strict in (False, True):
        try:
            with (
                torch.no_grad(),
                quiet_torch(),
                portable_ops(),
                fresh_trace_state(),
                _equal(module, traced_inputs, dynamic_shapes),
            ):
                ep = torch.export.export(module, traced_inputs, dynamic_shapes=dynamic_shapes, strict=strict)
            if strict:
                notes.append("non-strict export failed; exported with strict=True")
            if unproven_guards(ep):  # a guard torch kept quietly (silent_guards.py): as a specialisation
                ep = _without_unproven_guards(module, traced_inputs, dynamic_shapes, notes) or ep
            return ep, notes
        except DeployError:
            raise  # the rewriters' own errors already name the user's line
        except Exception as exc:  # torch raises many unrelated types here
            first = first or exc
            if _is_specialisation(exc):
                for retry in _specialisation_retries(module, traced_inputs, dynamic_shapes, notes):
                    ep = retry()
                    if ep is not None:
                        return ep, notes
            elif is_data_dependent(exc) and not strict:
                # first with the input sizes kept as they are: size-oblivious, a slice
                # `ir[b, 0, H // 2 - 2 : H // 2 + 2]` in a loop body has sizes of its own, which the
                # loop cannot carry (a pooling of sizes a size branch picked is the question here)
                ep = _size_oblivious(module, traced_inputs, dynamic_shapes, notes, backed=False)
                ep = ep or _size_oblivious(module, traced_inputs, dynamic_shapes, notes)
                if ep is not None:
                    return ep, notes
            if _is_control_flow_failure(exc):
                break  # strict mode fails the same way, only slower
    raise explain_export_failure(first, module) from first


_equal = shared_dims_known_equal


def _specialisation_retries(module, inputs, dynamic_shapes, notes: list[str]):
    """The retries of an export that specialised a dim, in order; each returns a program or None."""
    args = (module, inputs, dynamic_shapes, notes)
    yield lambda: _trusting_size_branches(*args)
    yield lambda: _range_checked_guards(*args)
    yield lambda: _size_oblivious(*args)
    yield lambda: _trusting_size_branches(*args, everywhere=True)
    # both: `if rets.shape[0] >= 5: rets.unfold(0, 5, 1)` (a guard in a size branch) after
    # `a[1:] / a[:-1]` (is `n - 1` 1? answered size-obliviously)
    yield lambda: _size_oblivious(*args, trusting=True)


def _without_unproven_guards(module, inputs, dynamic_shapes, notes: list[str]):
    """An export that kept a size guard failing somewhere in the dims' ranges (silent_guards.py),
    retried as one that specialised a dim; the first retry without such a guard, else None (the
    program is kept with a note: its graph does not check the guard, verification does)."""
    for retry in _specialisation_retries(module, inputs, dynamic_shapes, tried := []):
        ep = retry()
        if ep is not None and not unproven_guards(ep):
            notes.extend(tried)
            return ep
        tried.clear()
    notes.append(
        "torch.export kept size guard(s) it could not express as dim ranges and the exported graphs do not "
        "check; verification at the minimum, middle and maximum sizes checks the program"
    )
    return None


def _is_specialisation(exc: BaseException) -> bool:
    message = str(exc)
    return "Constraints violated" in message or "specialized it to be a constant" in message


def _retry(module, inputs, dynamic_shapes, context, failures: list | None = None):
    """A fresh non-strict export within ``context`` (plus the usual export contexts); None when it
    fails (the original error is the one to explain; ``failures`` gets this one)."""
    torch._dynamo.reset()
    try:
        with (
            torch.no_grad(),
            quiet_torch(),
            portable_ops(),
            fresh_trace_state(),
            context,
            _equal(module, inputs, dynamic_shapes),
        ):
            return torch.export.export(module, inputs, dynamic_shapes=dynamic_shapes, strict=False)
    except DeployError:
        raise
    except Exception as exc:  # torch raises many unrelated types here
        if failures is not None:
            failures.append(exc)
        return None


def _trusting_size_branches(module, inputs, dynamic_shapes, notes: list[str], everywhere: bool = False):
    """Retry an export that failed on a specialised dim with the guards of branches on dynamic sizes
    dropped (deploy.rewriters.size_branches); ``everywhere``: those of every branch and loop body
    traced from the top level (the last retry: a size branch nested in a tensor one, `if cgm[-1] < 70:
    return ...` before `... if cgm.shape[0] >= 4 else ...`, or in a helper a loop body calls); None when that is not the cause or does not help."""
    used = []

    @contextmanager
    def trusting():
        with trusting_size_branches(everywhere) as trust:
            yield
            used.append(trust.used)

    ep = _retry(module, inputs, dynamic_shapes, trusting())
    if ep is None or not any(used):
        return None
    notes.append(
        "branches on dynamic sizes traced without the size guards their bodies record (torch.export "
        "could not prove them for every size); verification at the minimum, middle and maximum sizes checks them"
        if not everywhere
        else "branches and loop bodies traced without the size guards they record, a branch on a dynamic size "
        "being nested in them (torch.export could not prove the guards for every size); verification at the "
        "minimum, middle and maximum sizes checks them"
    )
    return ep


def _range_checked_guards(module, inputs, dynamic_shapes, notes: list[str], context=None):
    """Retry an export whose guards torch could not prove with each guard checked at every size of
    its range instead (deploy.exporter.range_guards), within ``context`` when given; None when that
    does not give a program."""
    torch._dynamo.reset()
    try:
        with (
            torch.no_grad(),
            quiet_torch(),
            portable_ops(),
            fresh_trace_state(),
            context or nullcontext(),
            _equal(module, inputs, dynamic_shapes),
        ):
            found = export_with_range_checked_guards(module, inputs, dynamic_shapes)
    except DeployError:
        raise
    except Exception:  # the original error is the one to explain
        return None
    if found is None or not (found[1] or found[2]):
        return None
    notes.append(
        f"{found[1] + found[2]} size guard(s) torch.export could not prove were checked at every size of "
        "their dynamic range instead, and hold at all of them"
        + (
            f" except {found[2]} that a size is not 0 or 1, which fail only where it is (the graph is the one "
            "torch builds for sizes it knows nothing about; verification at the minimum size checks it)"
            if found[2]
            else ""
        )
    )
    return found[0]


def _size_oblivious(
    module, inputs, dynamic_shapes, notes: list[str], trusting: bool = False, backed: bool = True
):
    """Retry an export that failed on a specialised dim or on a size torch could not decide with
    every size decision taken size-obliviously (deploy.oblivious): metadata checks such as
    "is this dim of size ``n - 1`` equal to 1?" (contiguity, broadcasting) no longer guard on the
    example's size, and "is this data-dependent length 0?" (``Tensor.roll``) takes the general path.
    Such a graph may assume a size is not 0 or 1, so verification at the minimum size checks it
    against eager. ``trusting``: the guards of branches on dynamic sizes are dropped too; not ``backed``:
    only the decisions about data-dependent sizes. When it still fails on a specialised dim, the guards torch could not prove are
    checked at every size of their range as well (_range_checked_guards); None when that fails too."""
    used = []

    @contextmanager
    def oblivious():
        with size_oblivious(backed) as answered, trusting_size_branches() if trusting else nullcontext():
            yield
            used.append(answered.unbacked)

    failures: list[BaseException] = []
    ep = _retry(module, inputs, dynamic_shapes, oblivious(), failures)
    if ep is None and failures and _is_specialisation(failures[0]):
        # both at once: `keep = w.topk((2 * n) // 3).indices` then `w[keep]` over n in [2, 64] guard
        # on `(2 * n) // 3 != 1` (index broadcasting, false at n = 2: answered size-obliviously) and
        # on `(2 * n) // 3 <= n` (topk's k <= size: true for every n, though torch cannot prove it)
        ep = _range_checked_guards(module, inputs, dynamic_shapes, notes, oblivious())
    if ep is not None:
        notes.append(
            "exported with size decisions taken size-obliviously (a size check torch could not decide "
            "for every size)"
            + (
                ", and branches on dynamic sizes traced without the size guards their bodies record"
                if trusting
                else ""
            )
            + "; verification at the minimum, middle and maximum sizes checks the program"
        )
        if any(used):
            notes.append(
                f"{sum(used)} question(s) about data-dependent sizes (is it 0 or 1?) torch could not decide "
                "were answered as for a size of at least 2 (the general path); verification checks them"
            )
    return ep


def _is_control_flow_failure(exc: BaseException) -> bool:
    message = str(exc)
    return is_data_dependent(exc) or "Constraints violated" in message


def explain_export_failure(exc: BaseException, module: torch.nn.Module) -> NotDeployableError:
    """One clear error naming the user's file:line instead of a torch internals message."""
    message = str(exc)
    # torch quotes the user's line in its own messages; an error raised while running the user's code
    # (a shape mismatch in `torch.cat`) has it in the traceback instead
    where = user_frame_in_message(message) or innermost_user_frame(exc.__traceback__)
    if is_data_dependent(exc):
        undecided = re.search(r"data-dependent expression (.+?) \(unhinted", message)
        fact = f" (torch.export cannot decide {undecided.group(1)})" if undecided else ""
        what = (
            f"control flow on a tensor value, or on a size computed from one, cannot be exported as is{fact}"
        )
        hint = (
            "without --no-rewrite deploy converts if/while/.item() on tensors; a size that a converted "
            "branch changed can still be undecidable here: compute it without the branch or use torch.where"
        )
        return _located(what, hint, where)
    if "specialized it to be a constant" in message or "Constraints violated" in message:
        loop = find_shape_control_flow(module)
        what = "a dynamic dim was specialised to its example size"
        hint = (
            "a Python loop or branch on that size fixes it (deploy converts those unless --no-rewrite); "
            "otherwise make the code at that line work for every size (e.g. no list of differently-sized "
            "chunks) or mark the dim static"
        )
        return _located(what, hint, where or loop)
    first = message.strip().splitlines()[0] if message.strip() else type(exc).__name__
    return _located(f"torch.export failed: {type(exc).__name__}: {first}", "", where)


def _located(what: str, hint: str, where: tuple[str, int] | None) -> NotDeployableError:
    text = f"{what}; {hint}" if hint else what
    if where is None:
        return NotDeployableError(text)
    return NotDeployableError(text, file=where[0], line=where[1], detail=source_window(*where))


def find_shape_control_flow(module: torch.nn.Module) -> tuple[str, int] | None:
    """The first `for`/`while`/`if` in the module's forwards whose header reads a tensor size."""
    seen: set[type] = set()
    for sub in module.modules():
        cls = type(sub)
        if cls in seen:
            continue
        seen.add(cls)
        try:
            lines, start = inspect.getsourcelines(cls.forward)
            file = inspect.getsourcefile(cls.forward)
        except (OSError, TypeError):
            continue
        tree = ast.parse(textwrap.dedent("".join(lines)))
        for node in ast.walk(tree):
            header = getattr(node, "iter", None) or getattr(node, "test", None)
            if isinstance(node, (ast.For, ast.While, ast.If)) and header is not None:
                text = ast.unparse(header)
                if ".shape" in text or ".size(" in text or "len(" in text:
                    return file, start + node.lineno - 1
    return None
