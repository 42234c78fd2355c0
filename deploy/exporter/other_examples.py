"""An export that fails at the example, traced again at other inputs the user gave.

torch traces every branch of a converted ``if`` at the example's sizes, also the branch that never
runs at those sizes. A size branch nested in a tensor one (`if rms < floor: return prior` before
`if frames > 128: h.reshape(b, c, frames // 128, 128).amax(-1)`) sits in a body dynamo traces,
where the branch on the size is an ordinary cond: its untaken side is traced at the example's 61
frames and reduces over zero chunks ("reducing over zero-size dimension"). At an input of more than
128 frames both sides trace. The dynamic dims stay dynamic whatever the example is, so a program
traced at another of the user's ``verify_inputs()`` is the same program over the same ranges; the
export keeps torch's guards and verification still compares it with eager on every input.

Retried at most at two other inputs, the largest and the smallest whose shapes differ from the
example's, and never for an op a backend has no translation for (the program has that op at any
input). Whether to retry depends only on the failure, never on how long it took: a retry decided by
time would let machine load change what exports.
"""

from __future__ import annotations

from typing import Any

import torch

from deploy.errors import NotDeployableError, UnsupportedOpError


def export_at_some_example(module, example: tuple, verify: list[tuple], dynamic_shapes: Any, export):
    """``export(module, inputs, dynamic_shapes)`` at ``example``, else at up to two of ``verify``
    (see module docstring); the first error when none gives a program."""
    try:
        return export(module, example, dynamic_shapes)
    except NotDeployableError as exc:
        if dynamic_shapes is None or isinstance(exc, UnsupportedOpError):
            raise
        first = exc
    # outside the handler: an error raised within it would chain to the first one, and the
    # rewriters, which look for their own error in a failure's chain, would raise that one again
    for index in other_examples(example, verify):
        try:
            program, notes = export(module, verify[index], dynamic_shapes)
        except NotDeployableError:
            continue
        notes.append(
            f"traced at verify_inputs()[{index}]: at example_inputs() the export failed ({_first_line(first)})"
        )
        return program, notes
    raise first


def other_examples(example: tuple, verify: list[tuple]) -> list[int]:
    """Indices into ``verify`` of the largest and the smallest input (by elements) whose tensor
    shapes differ from ``example``'s."""
    shapes = _shapes(example)
    sized = [(_elements(inputs), i) for i, inputs in enumerate(verify) if _shapes(inputs) != shapes]
    if not sized:
        return []
    largest, smallest = max(sized)[1], min(sized)[1]
    return [largest] if largest == smallest else [largest, smallest]


def _shapes(inputs: tuple) -> list[tuple[int, ...]]:
    return [tuple(v.shape) for v in torch.utils._pytree.tree_leaves(inputs) if isinstance(v, torch.Tensor)]


def _elements(inputs: tuple) -> int:
    return sum(v.numel() for v in torch.utils._pytree.tree_leaves(inputs) if isinstance(v, torch.Tensor))


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    line = text[0] if text else type(exc).__name__
    return line if len(line) <= 160 else line[:157] + "..."
