"""Whether torch is tracing a loop body, and how a tensor `if` there is converted (see below)."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator

import torch


# True while torch traces a while_loop/scan body. A tensor `if` in a loop body is first a cond (only
# the branch taken runs: ``pen[i]`` under ``if i < n``, an interpolation of a stroke under ``if
# len >= 2``, would fail at run time when computed on the other path); when torch refuses the loop
# that way (a cond over outputs with differently written strides...), the loop is traced again with
# such `if`s as selects (torch.where over both branches), as before. Dynamo reads the flags as
# constants while it traces the body. The flag lives on one object so that, when
# a loop is itself traced inside another graph op's body (a loop in a cond branch), dynamo sees a
# set-and-restore of one attribute, which it accepts, rather than a mutated module global.
class _TraceState:
    def __init__(self) -> None:
        self.in_loop_body = False
        self.conds_in_body = True  # a loop is first traced with conds in its body (see loop_common)
        self.probing = False  # a probe of a cond's branches is being traced (branch_probes.py)
        # a loop traced again after a cond in its body gave outputs torch.cond refused for their
        # strides: such conds pass their resized outputs flattened (shape_cond.resized_in_body)
        self.resized_flat = False


TRACE_STATE = _TraceState()


# Read and set through functions dynamo runs as they are (assume_constant_result) rather than
# traces: inside a cond branch that dynamo traces, the set-and-restore around a loop would
# otherwise be a side effect dynamo refuses when a second loop follows the first in that branch.
@torch._dynamo.assume_constant_result
def in_loop_body_now() -> bool:
    """Whether torch is tracing a while_loop/scan body."""
    return TRACE_STATE.in_loop_body


@torch._dynamo.assume_constant_result
def selects_in_body_now() -> bool:
    """Whether a tensor `if` in the loop body being traced becomes a select (else a cond)."""
    return TRACE_STATE.in_loop_body and not TRACE_STATE.conds_in_body


@torch._dynamo.assume_constant_result
def resized_flat_now() -> bool:
    """Whether a cond dynamo traces passes outputs of differing sizes flattened (see above)."""
    return TRACE_STATE.resized_flat


@torch._dynamo.assume_constant_result
def set_in_loop_body(value: bool) -> bool:
    """Set the flag; returns the previous value."""
    previous = TRACE_STATE.in_loop_body
    TRACE_STATE.in_loop_body = value
    return previous


@torch._dynamo.assume_constant_result
def probing_now() -> bool:
    """Whether dynamo traces a probe of a cond's branches (branch_probes.py)."""
    return TRACE_STATE.probing


@torch._dynamo.assume_constant_result
def set_probing(value: bool) -> bool:
    """Set the probe flag; returns the previous value."""
    previous = TRACE_STATE.probing
    TRACE_STATE.probing = value
    return previous


@contextlib.contextmanager
def fresh_trace_state() -> Iterator[None]:
    """Within: every flag at its default, and again afterwards. An export try that dynamo abandons
    halfway through a probe or a loop body runs no ``finally`` of the code it traced, so a flag set
    there could outlive the try and turn the next export's tensor `if`s into selects (or an eager
    run's); each export try starts and ends with a clean state. Python's recursion limit is raised
    meanwhile: dynamo inlines each converted branch, helper and probe with dozens of its own frames,
    and a chain of early returns nests them (ten `return`s in a hand evaluator's helper)."""
    reset_trace_state()
    limit, functions = sys.getrecursionlimit(), torch._C._get_torch_function_state()
    sys.setrecursionlimit(max(limit, _RECURSION_LIMIT))
    try:
        yield
    finally:
        sys.setrecursionlimit(limit)
        reset_trace_state()
        torch_functions_back(functions)


_RECURSION_LIMIT = 6000


def reset_trace_state() -> None:
    """Every flag back to its default."""
    TRACE_STATE.__init__()


@contextlib.contextmanager
def probe_flag_kept() -> Iterator[None]:
    """Within: a graph op traced from the top level; the probe flag is set back afterwards even
    when dynamo gave up halfway through a probe (it runs no ``finally`` of the code it abandons,
    while the flag was really set), and torch's ``__torch_function__`` handling too (see
    ``torch_functions_back``). A no-op inside dynamo."""
    if torch.compiler.is_dynamo_compiling():
        yield
        return
    previous, functions = TRACE_STATE.probing, torch._C._get_torch_function_state()
    try:
        yield
    finally:
        TRACE_STATE.probing = previous
        torch._C._set_torch_function_state(functions)


def torch_functions_back(state: object) -> None:
    """torch's ``__torch_function__`` handling set back to ``state`` after a failed trace: when dynamo
    gives up on a graph op's body (a data-dependent guard), torch 2.13 can leave the handling off,
    which bypasses torch.export's non-strict handler for the rest of the export and every later one
    in the process (``t[u0]`` then fails with "only integers ... (got SymInt)")."""
    torch._C._set_torch_function_state(state)
