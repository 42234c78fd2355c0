"""How the branches of a cond on a dynamic size are traced.

``if x.shape[1] > 16: x = x[:, -16:]`` is traced for *every* size in the dynamic range, but the
then-branch only ever runs for sizes above 16. torch records the decisions a branch's ops make about
sizes as guards on the whole program, taken at the example's size (which may be on the other side of
the test), so a branch that is fine where it runs can still break the export ("the dim was
specialised"). Two remedies, in this order:

- always: the branches are traced size-obliviously (``backed_size_oblivious``), so slicing and
  pooling keep symbolic sizes (``Min(16, s)``) instead of deciding against the example's size;
- on request (``trusting_size_branches()``, which the exporter uses to retry an export that failed on
  a specialised dim): the guards a size branch records are dropped. The branch is then trusted to be
  valid wherever its test holds, and verification at the minimum and maximum sizes (both sides of
  the test) checks that trust against eager.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

import torch

from deploy.rewriters import size_clamps


class _State:
    trusted = False
    trusted_everywhere = False
    used = False


STATE = _State()


def mark_size_predicate(result: object, test: object = None) -> object:
    """Tag a predicate computed from a dynamic size (see emit_cond); ``test`` is the SymBool it
    was computed from (size_clamps.py)."""
    if isinstance(result, torch.Tensor) and not torch.compiler.is_dynamo_compiling():
        result._deploy_on_size = True
        size_clamps.store_test(result, test)
    return result


def mark_negated(result: object, pred: object) -> object:
    """``not pred`` of a size predicate is one too."""
    if is_size_predicate(pred) and isinstance(result, torch.Tensor):
        result._deploy_on_size = True
        size_clamps.negate_test(result, pred)
    return result


def mark_combined(result: object, left: object, right: object, how: str) -> object:
    """``a and b`` / ``a or b`` of two size predicates is one too."""
    if is_size_predicate(left) and is_size_predicate(right) and isinstance(result, torch.Tensor):
        result._deploy_on_size = True
        size_clamps.combine_tests(result, left, right, how)
    return result


def is_size_predicate(pred: object) -> bool:
    return not torch.compiler.is_dynamo_compiling() and bool(getattr(pred, "_deploy_on_size", False))


@contextmanager
def tracing_branches(pred: object) -> Iterator[None]:
    """The context a cond's branches are traced in (nothing special unless ``pred`` is on a size)."""
    if not is_size_predicate(pred):
        with trusted_everywhere():  # any cond traced from the top level, in the last retry
            yield
        return
    with ExitStack() as stack:
        stack.enter_context(torch.fx.experimental._config.patch(backed_size_oblivious=True))
        mode = torch._guards.detect_fake_mode()
        if STATE.trusted and mode is not None and mode.shape_env is not None:
            stack.enter_context(mode.shape_env.suppress_guards())
            STATE.used = True
        yield


@contextmanager
def trusted_everywhere() -> Iterator[None]:
    """The context a cond's branches or a loop's body are traced in from the top level: their guards
    are dropped in the last retry (``trusting_size_branches(everywhere=True)``), where a size branch
    sits inside them (in a helper a loop body calls: `if t.shape[0] >= 8:` before a Conv1d of kernel
    5), recording guards dynamo cannot clamp. Dynamo cannot trace detect_fake_mode: a graph op nested
    in a body it traces keeps its guards here (the body's own trace drops them)."""
    everywhere = STATE.trusted_everywhere and not torch.compiler.is_dynamo_compiling()
    mode = torch._guards.detect_fake_mode() if everywhere else None
    if mode is None or mode.shape_env is None:
        yield
        return
    with mode.shape_env.suppress_guards():
        STATE.used = True
        yield


@contextmanager
def trusting_size_branches(everywhere: bool = False) -> Iterator[_State]:
    """Within: the guards recorded while tracing size branches are dropped (``everywhere``: those
    recorded while tracing any cond's branches from the top level, where a size branch may sit in a
    cond dynamo traces); ``.used`` tells whether any branch was traced that way."""
    previous = STATE.trusted, STATE.trusted_everywhere
    STATE.trusted, STATE.trusted_everywhere, STATE.used = True, everywhere, False
    try:
        yield STATE
    finally:
        STATE.trusted, STATE.trusted_everywhere = previous
