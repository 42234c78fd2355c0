"""Backends: each emits an artifact and loads it behind one interface.

Every runtime exposes ``load(path, **options) -> Session`` where a Session has
``runtime`` (a name), ``input_names`` and ``run(inputs) -> list[np.ndarray]``, so any two
artifacts can be compared numerically by one verifier. Backends are imported lazily:
the CUDA path must work on a machine that has only torch.
"""

from __future__ import annotations

import importlib
import os
from pathlib import Path

from deploy.errors import InputError
from deploy.runtimes.base import Session

# artifact suffix -> module that implements load(path, **options)
_LOADERS = {
    ".onnx": "deploy.runtimes.onnx.session",
    ".tflite": "deploy.runtimes.tflite.session",
    ".pt2": "deploy.runtimes.cuda.session",
}


def artifact_kind(path: str | os.PathLike) -> str:
    """The runtime family of an artifact path: 'onnx', 'tflite' or 'pt2'."""
    suffix = Path(path).suffix.lower()
    if suffix not in _LOADERS:
        raise InputError(
            f"unknown artifact type {suffix or '(none)'!r}; expected .onnx, .tflite or .pt2", file=str(path)
        )
    return suffix.lstrip(".")


def load(path: str | os.PathLike, **options) -> Session:
    """Load an artifact with the runtime its suffix names."""
    path = Path(path)
    artifact_kind(path)
    if not path.is_file():
        raise InputError("no such file", file=str(path))
    module = importlib.import_module(_LOADERS[path.suffix.lower()])
    return module.load(path, **options)


__all__ = ["Session", "load", "artifact_kind"]
