"""Run a .tflite file with ai-edge-litert's Interpreter (XNNPACK) behind the common Session interface.

Dims that are -1 in an input's shape_signature are dynamic: ``run`` resizes those inputs to
the arrays it is given and re-allocates before invoking.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from deploy.errors import InputError
from deploy.runtimes.base import TensorSpec


class TfliteSession:
    runtime = "ai-edge-litert"

    def __init__(self, path: Path, threads: int | None = None):
        from ai_edge_litert.interpreter import Interpreter

        try:
            self._interpreter = Interpreter(model_path=str(path), num_threads=threads)
        except Exception as exc:  # the interpreter raises RuntimeError/ValueError with long texts
            raise InputError(
                f"ai-edge-litert cannot load this model: {_first_line(exc)}", file=str(path)
            ) from exc
        self._inputs = self._interpreter.get_input_details()
        self._allocated = False
        try:
            self._interpreter.allocate_tensors()
            self._allocated = True
        except Exception as exc:
            # dynamic dims default to 1, where a 3x3 convolution without padding cannot prepare:
            # such a model is allocated by ``run``, at the sizes it is given
            if not any(int(d) < 0 for i in self._inputs for d in i.get("shape_signature", ())):
                raise InputError(
                    f"ai-edge-litert cannot load this model: {_first_line(exc)}", file=str(path)
                ) from exc
        self.path = path
        self._outputs = self._interpreter.get_output_details()
        self.input_specs = [self._spec(d) for d in self._inputs]
        self.output_specs = [self._spec(d) for d in self._outputs]
        self.input_names = [s.name for s in self.input_specs]
        self._shapes = [tuple(d["shape"]) for d in self._inputs]

    @staticmethod
    def _spec(detail: dict) -> TensorSpec:
        signature = detail.get("shape_signature")
        if signature is None or len(signature) != len(detail["shape"]):
            signature = detail["shape"]
        shape = tuple(None if int(d) < 0 else int(d) for d in signature)
        return TensorSpec(detail["name"], shape, np.dtype(detail["dtype"]).name)

    def run(self, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        if len(inputs) != len(self._inputs):
            raise InputError(
                f"model takes {len(self._inputs)} inputs, got {len(inputs)}", file=str(self.path)
            )
        arrays = [np.asarray(a, dtype=d["dtype"], order="C") for a, d in zip(inputs, self._inputs)]
        resized = False
        for i, (array, detail) in enumerate(zip(arrays, self._inputs)):
            if tuple(array.shape) != self._shapes[i]:
                self._interpreter.resize_tensor_input(detail["index"], list(array.shape), strict=False)
                self._shapes[i] = tuple(array.shape)
                resized = True
        if resized or not self._allocated:
            self._interpreter.allocate_tensors()
            self._allocated = True
        for array, detail in zip(arrays, self._inputs):
            self._interpreter.set_tensor(detail["index"], array)
        self._interpreter.invoke()
        return [self._output(d) for d in self._outputs]

    def _output(self, detail: dict) -> np.ndarray:
        # the interpreter refuses to hand out a tensor with no elements (0 rows kept by a filter)
        try:
            return self._interpreter.get_tensor(detail["index"]).copy()
        except ValueError:
            shape = self._current_shape(detail)
            if shape is None or 0 not in shape:
                raise
            return np.zeros(shape, dtype=detail["dtype"])

    def _current_shape(self, detail: dict) -> tuple[int, ...] | None:
        for current in self._interpreter.get_output_details():
            if current["index"] == detail["index"]:
                return tuple(int(d) for d in current["shape"])
        return None


def _first_line(exc: BaseException) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


def load(path: str | Path, threads: int | None = None, **_: object) -> TfliteSession:
    return TfliteSession(Path(path), threads=threads)
