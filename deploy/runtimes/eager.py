"""Eager PyTorch behind the common Session interface: the dynamic-graph baseline for bench and verify."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import torch

from deploy.runtimes.base import TensorSpec


def flatten_outputs(value) -> list[torch.Tensor]:
    """Model outputs (a tensor, nested tuples/lists/dicts of tensors) as a flat list in order."""
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, (tuple, list)):
        return [t for item in value for t in flatten_outputs(item)]
    if isinstance(value, dict):
        return [t for key in value for t in flatten_outputs(value[key])]
    return [torch.as_tensor(value)]


class EagerSession:
    """Runs an nn.Module eagerly (eval, no grad) on numpy inputs."""

    runtime = "torch-eager"

    def __init__(
        self, module: torch.nn.Module, example_inputs: Sequence[torch.Tensor], threads: int | None = None
    ):
        if threads:
            torch.set_num_threads(threads)
        self.module = module.eval()
        self.input_specs = [
            TensorSpec(
                f"input_{i}", tuple(t.shape), str(t.numpy().dtype) if t.dtype != torch.bfloat16 else "float32"
            )
            for i, t in enumerate(example_inputs)
        ]
        self.input_names = [s.name for s in self.input_specs]

    def run(self, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        tensors = [torch.from_numpy(np.asarray(x, order="C")) for x in inputs]
        with torch.no_grad():
            return [t.detach().cpu().numpy() for t in flatten_outputs(self.module(*tensors))]
