"""Branch coverage of converted sites while the rewritten module runs eagerly.

    with record_branches() as taken:
        rewritten(*inputs)
    taken.branches  # {(file, line): {"then", "else", "loop 2+ iterations", ...}}

``candidate_inputs(example_inputs)`` makes inputs likely to flip predicates (negated, scaled up and
down, zeros, ones, shifted); the exporter keeps those that add coverage and verifies them too.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass, field

import torch

from deploy.rewriters import sites
from deploy.rewriters.sites import LoopLimitExceeded

__all__ = ["KINDS", "LABELS", "Coverage", "LoopLimitExceeded", "candidate_inputs", "record_branches"]


@dataclass
class Coverage:
    """Branches taken per site, keyed by the user's (file, line)."""

    events: list = field(default_factory=list)

    @property
    def branches(self) -> dict[tuple[str, int], set[str]]:
        out: dict[tuple[str, int], set[str]] = {}
        for site_id, branch in self.events:
            site = sites.get_site(site_id)
            out.setdefault((site.file, site.line), set()).add(branch)
        return out

    def pairs(self) -> set[tuple[str, int, str]]:
        """(file, line, branch) triples, handy for "does this input add coverage"."""
        return {(f, line, b) for (f, line), bs in self.branches.items() for b in bs}


@contextlib.contextmanager
def record_branches() -> Iterator[Coverage]:
    """Record which branch every converted site takes while code runs eagerly inside the block.

    While recording, a converted loop that runs past ``sites.RECORDING_LOOP_LIMIT`` iterations raises
    LoopLimitExceeded (a candidate input that makes the model loop forever): drop that input."""
    coverage = Coverage()
    previous = sites._RECORDER
    sites._RECORDER = coverage.events
    try:
        yield coverage
    finally:
        sites._RECORDER = previous


def _transform(value: object, how: str) -> object:
    if not isinstance(value, torch.Tensor):
        return value
    if value.dtype.is_floating_point:
        return {
            "negated": lambda v: -v,
            "scaled_up": lambda v: v * 10.0,
            "scaled_down": lambda v: v * 0.01,
            "zeros": torch.zeros_like,
            "ones": torch.ones_like,
            "minus_ones": lambda v: -torch.ones_like(v),
            "shifted_up": lambda v: v + 3.0,
            "shifted_down": lambda v: v - 3.0,
        }[how](value)
    if value.dtype == torch.bool:
        return {"negated": torch.logical_not, "zeros": torch.zeros_like, "ones": torch.ones_like}.get(
            how, lambda v: v
        )(value)
    return {
        "zeros": torch.zeros_like,
        "ones": torch.ones_like,
        "shifted_up": lambda v: v + 1,
        "shifted_down": lambda v: (v - 1).clamp_min(0),
        "scaled_up": lambda v: v * 2,
    }.get(how, lambda v: v)(value)


KINDS = ("negated", "scaled_up", "scaled_down", "zeros", "ones", "minus_ones", "shifted_up", "shifted_down")
LABELS = (*KINDS, "random x0.5", "random x5")  # candidate_inputs()[i] is LABELS[i]


def candidate_inputs(example_inputs: tuple) -> list[tuple]:
    """Inputs with the example's shapes and dtypes that are likely to flip tensor predicates."""
    # one candidate per KINDS entry, in order (callers label them by position), then two random ones
    candidates = [tuple(_transform(v, how) for v in example_inputs) for how in KINDS]
    generator = torch.Generator().manual_seed(0)
    for scale in (0.5, 5.0):
        candidates.append(
            tuple(
                torch.randn(v.shape, generator=generator, dtype=v.dtype) * scale
                if isinstance(v, torch.Tensor) and v.dtype.is_floating_point
                else v
                for v in example_inputs
            )
        )
    return candidates
