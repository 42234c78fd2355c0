"""The common runtime interface: load(path) -> Session; Session.run(inputs) -> outputs."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np


@dataclass(frozen=True)
class TensorSpec:
    """One model input or output: a name, a shape (None for a dynamic dim) and a numpy dtype name."""

    name: str
    shape: tuple[int | None, ...]
    dtype: str


@runtime_checkable
class Session(Protocol):
    """A loaded artifact ready to run. Inputs and outputs are numpy arrays, in model order."""

    runtime: str  # e.g. "onnxruntime", "ai-edge-litert", "aotinductor", "torch-eager"
    input_specs: list[TensorSpec]

    def run(self, inputs: Sequence[np.ndarray]) -> list[np.ndarray]: ...


def random_inputs(specs: Sequence[TensorSpec], dynamic_size: int = 1, seed: int = 0) -> list[np.ndarray]:
    """Random inputs matching ``specs``; dynamic dims take ``dynamic_size``.

    Integer inputs are drawn from [0, 10) so they are valid indices for embeddings.
    """
    rng = np.random.default_rng(seed)
    arrays = []
    for spec in specs:
        shape = tuple(dynamic_size if d is None else d for d in spec.shape)
        dtype = np.dtype(spec.dtype)
        if dtype == np.bool_:
            arrays.append(rng.random(shape) > 0.5)
        elif np.issubdtype(dtype, np.integer):
            arrays.append(rng.integers(0, 10, size=shape).astype(dtype))
        else:
            arrays.append(rng.standard_normal(shape).astype(dtype))
    return arrays
