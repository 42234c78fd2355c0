"""A range loop with Python bounds and a tensor `break` whose carried values change shape:

    history = torch.zeros(beams, 0)
    for step in range(MAX_LEN):
        ...
        history = torch.cat([history[idx], tok[:, None]], 1)   # one column more every step
        if finished.all():
            break

torch.while_loop needs one shape per loop variable, so such a loop cannot be a graph loop. Its trip
count is a Python int, though, so the remaining iterations are unrolled: each one runs the body and
keeps its values only where the loop has not broken yet, a select between values of different
sizes (padded_select.py). After the loop ``history`` has a data-dependent width (an unbacked size).
A list the body appends to (a StackedList after a graph loop inside, or a list of tensors) is
selected as its rows stacked, so after the loop it holds the rows of the last step not broken.
The body's ops run for every unrolled step in the graph (results discarded after the break), so
only loops of at most ``MAX_UNROLLED`` remaining iterations are unrolled. Inside a graph op's body
(traced by dynamo) a loop of at most ``MAX_UNROLLED_NESTED`` iterations is unrolled too when its
values keep their shapes (``for d in range(1, k)`` with a tensor `return` in a helper a while loop
calls, ``k`` a window's static length): each step is a plain select.
"""

from __future__ import annotations

import torch

from deploy.errors import NotDeployableError
from deploy.rewriters.module_stack import kept_on_failure
from deploy.rewriters.padded_select import padded_select
from deploy.rewriters.selects import _where
from deploy.rewriters.values import StackedList, as_predicate, as_tensor_value

MAX_UNROLLED = 64
MAX_UNROLLED_NESTED = 8


def can_unroll(start: object, stop: object, step: object) -> bool:
    """Python bounds with a short enough trip count (shorter inside a graph op's body)."""
    if not all(isinstance(b, int) and not isinstance(b, bool) for b in (start, stop, step)) or step == 0:
        return False
    nested = torch.compiler.is_dynamo_compiling()
    return len(range(start, stop, step)) <= (MAX_UNROLLED_NESTED if nested else MAX_UNROLLED)


def try_unrolled(start, stop, step, body_fn, args, accumulators, break_index) -> tuple | None:
    """The remaining iterations unrolled under the break flag, or None when they cannot be."""
    if accumulators or not can_unroll(start, stop, step):
        return None
    try:
        with kept_on_failure():
            return unrolled_for(start, stop, step, body_fn, args, break_index)
    except NotDeployableError:
        raise
    except Exception:  # torch's many internal error types: the while_loop error is the one to show
        return None


def unrolled_for(start: int, stop: int, step: int, body_fn, args: tuple, break_index: int) -> tuple | None:
    """The iterations ``range(start, stop, step)`` unrolled under the break flag ``args[break_index]``;
    the carried values after them, or None when the values of a step cannot be selected between
    (another structure, dtype or rank)."""
    values = tuple(as_tensor_value(v) for v in args)
    for index in range(start, stop, step):
        broken = as_predicate(as_tensor_value(values[break_index]))
        new_values, _ = body_fn(index, *values)
        new_values = tuple(as_tensor_value(v) for v in new_values)
        current, new_values, listed = _as_rows(values, new_values)
        if torch.compiler.is_dynamo_compiling() and not _same_shapes(current, new_values):
            return None  # (a select between sizes reads them as unbacked sizes a body cannot return)
        values = padded_select(broken, lambda current=current: current, lambda new=new_values: new, _where)
        if values is None:
            return None
        values = tuple(StackedList([], v) if i in listed else v for i, v in enumerate(values))
    return values


def _same_shapes(values: tuple, new_values: tuple) -> bool:
    return all(
        not isinstance(a, torch.Tensor) or (isinstance(b, torch.Tensor) and a.shape == b.shape)
        for a, b in zip(values, new_values)
    )


def _as_rows(values: tuple, new_values: tuple) -> tuple[tuple, tuple, set[int]]:
    """Both steps' values with every list of tensors that changed (appended to) as its rows stacked;
    the positions of those lists."""
    values, new_values, listed = list(values), list(new_values), set()
    for i, (before, after) in enumerate(zip(values, new_values)):
        if before is after or not all(isinstance(v, (list, StackedList)) for v in (before, after)):
            continue
        rows = [_stacked(v) for v in (before, after)]
        known = next((r for r in rows if r is not None), None)
        if known is None:
            continue
        rows = [known.new_zeros((0, *known.shape[1:])) if r is None else r for r in rows]
        values[i], new_values[i] = rows
        listed.add(i)
    return tuple(values), tuple(new_values), listed


def _stacked(value: object) -> torch.Tensor | None:
    """A list's values stacked (None for an empty list: no row shape to stack to)."""
    if isinstance(value, StackedList):
        return value.stacked_with_prefix()
    if value and all(isinstance(v, torch.Tensor) for v in value):
        return torch.stack(value)
    return None
