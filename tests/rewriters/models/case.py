"""The record a test model is described by."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import torch


@dataclass
class Case:
    name: str
    model: Callable[[], torch.nn.Module]
    example: tuple
    verify: list[tuple] = field(default_factory=list)
    dynamic_shapes: object = None
    constructs: tuple[str, ...] = ()  # rewrite kinds expected in the exported graph


def seeded(factory: Callable[[], torch.nn.Module]) -> Callable[[], torch.nn.Module]:
    def make() -> torch.nn.Module:
        torch.manual_seed(0)
        return factory().eval()

    return make
