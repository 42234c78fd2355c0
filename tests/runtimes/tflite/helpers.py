"""Shared helpers for the TFLite backend tests: build small ONNX graphs, lower, run, compare."""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper

from deploy.runtimes.tflite.emit import emit_tflite
from deploy.runtimes.tflite.session import load

TYPES = {np.dtype("float32"): TensorProto.FLOAT, np.dtype("int64"): TensorProto.INT64,
         np.dtype("int32"): TensorProto.INT32, np.dtype("bool"): TensorProto.BOOL,
         np.dtype("uint8"): TensorProto.UINT8, np.dtype("int8"): TensorProto.INT8,
         np.dtype("uint32"): TensorProto.UINT32, np.dtype("int16"): TensorProto.INT16,
         np.dtype("float64"): TensorProto.DOUBLE}  # fmt: skip


def graph_model(nodes, inputs: dict, outputs: list[str], initializers: dict | None = None, opset: int = 20):
    """A model from nodes; ``inputs`` maps name -> example array (its dtype and shape are declared)."""
    value_inputs = [helper.make_tensor_value_info(n, TYPES[a.dtype], a.shape) for n, a in inputs.items()]
    value_outputs = [helper.make_empty_tensor_value_info(n) for n in outputs]
    inits = [onnx.numpy_helper.from_array(np.asarray(a), n) for n, a in (initializers or {}).items()]
    graph = helper.make_graph(nodes, "test", value_inputs, value_outputs, inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    return onnx.shape_inference.infer_shapes(model)


def reference(model: onnx.ModelProto, feeds: dict) -> list[np.ndarray]:
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.log_severity_level = 3
    session = ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])
    return session.run(None, feeds)


def lower_and_run(model: onnx.ModelProto, feeds: dict, **options) -> tuple[list[np.ndarray], dict]:
    """Outputs of the lowered model on ``feeds`` (in graph input order) and emit_tflite's summary."""
    with tempfile.TemporaryDirectory() as tmp:
        info = emit_tflite(model, Path(tmp) / "model.tflite", **options)
        session = load(info["path"])
        return session.run(list(feeds.values())), info


def assert_matches(model: onnx.ModelProto, feeds: dict, rtol: float = 1e-5, atol: float = 1e-5) -> dict:
    """Lower ``model``, run it in ai-edge-litert and compare with onnxruntime; returns the op summary."""
    actual, info = lower_and_run(model, feeds)
    expected = reference(model, feeds)
    assert len(actual) == len(expected)
    for a, e in zip(actual, expected):
        assert a.shape == e.shape, (a.shape, e.shape)
        np.testing.assert_allclose(a.astype(e.dtype), e, rtol=rtol, atol=atol)
    return info


def relative_error(actual: np.ndarray, expected: np.ndarray) -> float:
    """max|a - b| / max|b|: the parity measure of the acceptance criteria."""
    return float(np.abs(actual - expected).max() / max(np.abs(expected).max(), 1e-12))
