"""Eager PyTorch (optionally torch.compile'd) on a GPU behind the Session interface: the CUDA baseline.

Like a Pt2Session it has ``device`` and ``call(tensors)`` for timing on device-resident inputs,
and ``run(numpy)`` for verification.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from deploy.errors import InputError
from deploy.runtimes.base import TensorSpec
from deploy.runtimes.cuda.package import dtype_name


class TorchSession:
    """An nn.Module moved to ``device`` (eval, inference mode); ``compile=True`` wraps it in torch.compile."""

    def __init__(
        self,
        module: Any,
        example_inputs: Sequence[Any],
        *,
        device: str = "cuda",
        compile: bool = False,
        compile_options: dict[str, Any] | None = None,
    ):
        import torch

        if str(device).startswith("cuda") and not torch.cuda.is_available():
            raise InputError("eager on CUDA needs a CUDA GPU; this machine has none visible to PyTorch")
        self.device = torch.device(device)
        self.module = module.eval().to(self.device)
        self.runtime = "torch-compile" if compile else "torch-eager"
        self._fn = torch.compile(self.module, **(compile_options or {})) if compile else self.module
        self.input_specs = [
            TensorSpec(f"input_{i}", tuple(t.shape), dtype_name(t.dtype))
            for i, t in enumerate(example_inputs)
        ]
        self.input_names = [s.name for s in self.input_specs]

    def call(self, tensors: Sequence[Any]) -> list[Any]:
        import torch

        with torch.inference_mode():
            outputs = self._fn(*tensors)
        return [t for t in torch.utils._pytree.tree_leaves(outputs) if isinstance(t, torch.Tensor)]

    def to_device(self, inputs: Sequence[np.ndarray]) -> list[Any]:
        import torch

        return [torch.from_numpy(np.asarray(x, order="C")).to(self.device) for x in inputs]

    def run(self, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        import torch

        outputs = self.call(self.to_device(inputs))
        return [(t.float() if t.dtype == torch.bfloat16 else t).detach().cpu().numpy() for t in outputs]
