"""Run the ONNX backend node tests (shipped in the onnx package) through the TFLite lowering.

A case applies when every graph input and output is a float32/int32/int64/bool tensor.
It passes when lowering, loading in ai-edge-litert and every data set's outputs match the
reference within the case's own rtol/atol. Used by scripts/conformance.py and the CI tests.
"""

from __future__ import annotations

import re
import tempfile
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import onnx

APPLICABLE = {onnx.TensorProto.FLOAT, onnx.TensorProto.INT32, onnx.TensorProto.INT64, onnx.TensorProto.BOOL}
_EXPANDED = re.compile(r"_expanded(_ver\d+)?$")


@dataclass
class CaseResult:
    name: str
    op: str
    kind: str  # "float" or "int/bool"
    ok: bool
    stage: str  # "pass", "lower", "load", "run", "mismatch"
    reason: str = ""


def _elem_types(graph: onnx.GraphProto) -> list[int] | None:
    types = []
    for value in list(graph.input) + list(graph.output):
        if not value.type.HasField("tensor_type"):
            return None
        types.append(value.type.tensor_type.elem_type)
    return types


def applicable_cases() -> list:
    """The node test cases whose I/O are float32/int32/int64/bool tensors, in a stable order."""
    from onnx.backend.test.case.node import collect_testcases

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cases = collect_testcases()
    chosen = []
    for case in cases:
        types = _elem_types(case.model.graph)
        if types and all(t in APPLICABLE for t in types):
            chosen.append(case)
    return sorted(chosen, key=lambda c: c.name)


def case_kind(case) -> str:
    return "float" if onnx.TensorProto.FLOAT in _elem_types(case.model.graph) else "int/bool"


def case_ops(cases) -> dict[str, str]:
    """The op each case tests: its single node's type, or the op of its non-expanded twin."""
    ops = {c.name: c.model.graph.node[0].op_type for c in cases if len(c.model.graph.node) == 1}
    result = {}
    for case in cases:
        if case.name in ops:
            result[case.name] = ops[case.name]
        else:
            twin = _EXPANDED.sub("", case.name)
            result[case.name] = ops.get(
                twin, case.model.graph.node[0].op_type if case.model.graph.node else "?"
            )
    return result


def _close(actual: np.ndarray, expected: np.ndarray, rtol: float, atol: float) -> str:
    """'' when close, else why not."""
    expected = np.asarray(expected)
    if tuple(actual.shape) != tuple(expected.shape):
        return f"shape {tuple(actual.shape)} != {tuple(expected.shape)}"
    if expected.dtype == np.bool_ or np.issubdtype(expected.dtype, np.integer):
        return "" if np.array_equal(actual.astype(expected.dtype), expected) else "values differ"
    if not np.allclose(actual, expected, rtol=rtol, atol=atol, equal_nan=True):
        worst = np.nanmax(np.abs(actual.astype(np.float64) - expected)) if actual.size else 0.0
        return f"max abs diff {worst:.3g}"
    return ""


def run_case(case, op: str, workdir: Path | None = None) -> CaseResult:
    """Lower, load and run one case; never raises."""
    from deploy.runtimes.tflite.emit import emit_tflite
    from deploy.runtimes.tflite.session import load

    kind = case_kind(case)
    with tempfile.TemporaryDirectory(dir=workdir) as tmp:
        path = Path(tmp) / "case.tflite"
        try:
            emit_tflite(case.model, path)
        except Exception as exc:  # every failure is a result, not a crash of the suite
            return CaseResult(case.name, op, kind, False, "lower", _short(exc))
        try:
            session = load(path)
        except Exception as exc:
            return CaseResult(case.name, op, kind, False, "load", _short(exc))
        for inputs, expected in case.data_sets:
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    outputs = session.run([np.asarray(i) for i in inputs])
            except Exception as exc:
                return CaseResult(case.name, op, kind, False, "run", _short(exc))
            for actual, wanted in zip(outputs, expected):
                why = _close(actual, wanted, case.rtol, case.atol)
                if why:
                    return CaseResult(case.name, op, kind, False, "mismatch", why)
    return CaseResult(case.name, op, kind, True, "pass")


def _short(exc: Exception) -> str:
    text = str(exc).strip().splitlines()
    return (text[0] if text else type(exc).__name__)[:160]
