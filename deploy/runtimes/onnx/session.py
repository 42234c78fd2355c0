"""Run a .onnx file with onnxruntime's CPU provider behind the common Session interface."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from deploy.errors import InputError
from deploy.runtimes.base import TensorSpec

# onnxruntime type strings -> numpy dtype names
_ORT_TYPES = {
    "tensor(float)": "float32",
    "tensor(float16)": "float16",
    "tensor(double)": "float64",
    "tensor(int64)": "int64",
    "tensor(int32)": "int32",
    "tensor(int8)": "int8",
    "tensor(uint8)": "uint8",
    "tensor(bool)": "bool",
}


class OnnxSession:
    runtime = "onnxruntime"

    def __init__(self, path: Path, threads: int | None = None, providers: Sequence[str] | None = None):
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.log_severity_level = 3
        if threads:
            options.intra_op_num_threads = threads
            options.inter_op_num_threads = 1
        try:
            self._session = ort.InferenceSession(
                str(path), options, providers=list(providers or ["CPUExecutionProvider"])
            )
        except Exception as exc:  # onnxruntime raises its own Fail/InvalidGraph types
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise InputError(f"onnxruntime cannot load this model: {first}", file=str(path)) from exc
        self.path = path
        self.input_specs = [
            TensorSpec(
                i.name,
                tuple(d if isinstance(d, int) else None for d in i.shape),
                _ORT_TYPES.get(i.type, "float32"),
            )
            for i in self._session.get_inputs()
        ]
        self.input_names = [s.name for s in self.input_specs]
        self.output_names = [o.name for o in self._session.get_outputs()]

    def run(self, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        if len(inputs) != len(self.input_names):
            raise InputError(
                f"model takes {len(self.input_names)} inputs, got {len(inputs)}", file=str(self.path)
            )
        # np.ascontiguousarray would turn a 0-d input into shape (1,)
        feed = {name: np.asarray(value, order="C") for name, value in zip(self.input_names, inputs)}
        return list(self._session.run(self.output_names, feed))


def load(path: str | Path, threads: int | None = None, **_: object) -> OnnxSession:
    return OnnxSession(Path(path), threads=threads)
