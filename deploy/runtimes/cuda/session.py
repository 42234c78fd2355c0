"""Run a .pt2 AOTInductor package behind the common Session interface (numpy in, numpy out).

A cuda package runs on the GPU: inputs are copied to it and outputs back. ``call`` runs on torch
tensors already on the package's device, for GPU timing without host copies. Imports torch lazily
and nothing else heavy, so it works where only torch is installed.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from deploy.errors import InputError
from deploy.runtimes.base import TensorSpec, random_inputs
from deploy.runtimes.cuda.package import (
    DEVICE_KEY,
    EXAMPLES_KEY,
    INPUTS_KEY,
    OUTPUTS_KEY,
    decode_specs,
    read_metadata,
)


def _cuda_check(path: Path) -> None:
    import torch

    if not torch.cuda.is_available():
        raise InputError(
            "this .pt2 was compiled for CUDA and this machine has no CUDA GPU visible to PyTorch "
            "(use a model.cpu.pt2 here)",
            file=str(path),
        )


class Pt2Session:
    """An AOTInductor package loaded into this process."""

    runtime = "aotinductor"

    def __init__(
        self, path: Path, threads: int | None = None, device_index: int = -1, single_threaded: bool = False
    ):
        import torch

        metadata = read_metadata(path)
        self.path = path
        self.device_kind = metadata.get(DEVICE_KEY, "cpu")
        if self.device_kind == "cuda":
            _cuda_check(path)
        if threads:
            torch.set_num_threads(threads)
        try:
            # single_threaded: no per-call container locking, which CUDA graph capture needs.
            self.model = torch._inductor.aoti_load_package(
                str(path), run_single_threaded=single_threaded, device_index=device_index
            )
        except Exception as exc:
            first = next((ln.strip() for ln in str(exc).splitlines() if ln.strip()), type(exc).__name__)
            raise InputError(f"AOTInductor cannot load this package: {first}", file=str(path)) from exc
        metadata = {**metadata, **self.model.get_metadata()}
        self.metadata = metadata
        self.device_kind = metadata.get(DEVICE_KEY, self.device_kind)  # the archive may not carry it
        if self.device_kind == "cuda":
            self.device = torch.device(
                "cuda", device_index if device_index >= 0 else torch.cuda.current_device()
            )
        else:
            self.device = torch.device("cpu")
        self.input_specs: list[TensorSpec] = (
            decode_specs(metadata[INPUTS_KEY]) if INPUTS_KEY in metadata else []
        )
        self.output_specs: list[TensorSpec] = (
            decode_specs(metadata[OUTPUTS_KEY]) if OUTPUTS_KEY in metadata else []
        )
        self.input_names = [s.name for s in self.input_specs]
        self.example_shapes: list[list[int]] = json.loads(metadata.get(EXAMPLES_KEY, "[]"))

    def sample_inputs(self, seed: int = 0) -> list[np.ndarray]:
        """Random inputs of the export's example shapes (inside every dynamic dim's range)."""
        specs = self.input_specs
        if len(self.example_shapes) == len(specs):
            specs = [
                TensorSpec(s.name, tuple(shape), s.dtype)
                for s, shape in zip(specs, self.example_shapes, strict=True)
            ]
        return random_inputs(specs, seed=seed)

    def call(self, tensors: Sequence[Any]) -> list[Any]:
        """Run on torch tensors already on ``self.device``; returns the flat list of output tensors."""
        import torch

        with torch.inference_mode():
            outputs = self.model(*tensors)
        return [t for t in torch.utils._pytree.tree_leaves(outputs) if isinstance(t, torch.Tensor)]

    def to_device(self, inputs: Sequence[np.ndarray]) -> list[Any]:
        """Numpy inputs as contiguous torch tensors on the package's device."""
        import torch

        if self.input_specs and len(inputs) != len(self.input_specs):
            raise InputError(
                f"model takes {len(self.input_specs)} inputs, got {len(inputs)}", file=str(self.path)
            )
        return [torch.from_numpy(np.asarray(x, order="C")).to(self.device) for x in inputs]

    def run(self, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        import torch

        outputs = self.call(self.to_device(inputs))
        # numpy has no bfloat16: widen it, keep every other dtype as is
        return [(t.float() if t.dtype == torch.bfloat16 else t).detach().cpu().numpy() for t in outputs]


def load(
    path: str | Path,
    threads: int | None = None,
    device_index: int = -1,
    single_threaded: bool = False,
    **_: object,
) -> Pt2Session:
    """Load a .pt2 package; a cuda package on a machine without CUDA is an InputError naming CUDA."""
    path = Path(path)
    if not path.is_file():
        raise InputError("no such file", file=str(path))
    return Pt2Session(path, threads=threads, device_index=device_index, single_threaded=single_threaded)
