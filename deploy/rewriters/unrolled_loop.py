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
The body's ops run for every unrolled step in the graph (results discarded after the break), so
only loops of at most ``MAX_UNROLLED`` remaining iterations are unrolled.
"""

from __future__ import annotations

import torch

from deploy.errors import NotDeployableError
from deploy.rewriters.module_stack import kept_on_failure
from deploy.rewriters.padded_select import padded_select
from deploy.rewriters.selects import _where
from deploy.rewriters.values import as_predicate, as_tensor_value

MAX_UNROLLED = 64


def can_unroll(start: object, stop: object, step: object) -> bool:
    """Python bounds with a short enough trip count, at the top level of the program."""
    if torch.compiler.is_dynamo_compiling():
        return False
    if not all(isinstance(b, int) and not isinstance(b, bool) for b in (start, stop, step)) or step == 0:
        return False
    return len(range(start, stop, step)) <= MAX_UNROLLED


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
        current = values
        values = padded_select(broken, lambda current=current: current, lambda new=new_values: new, _where)
        if values is None:
            return None
    return values
