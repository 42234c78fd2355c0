"""CI subset of the ONNX node-test conformance suite: every applicable case of the core ops must pass.

The full suite (all ops, pass rates per op) is scripts/conformance.py -> docs/CONFORMANCE.md.
"""

import functools

import pytest

from deploy.runtimes.tflite.conformance import applicable_cases, case_ops, run_case

# Ops the samples and the control-flow models need, and common vision/NLP ops.
CI_OPS = {
    "Abs", "Add", "And", "ArgMax", "ArgMin", "Cast", "Ceil", "Clip", "Concat", "Constant", "Conv", "Cos", "CumSum",
    "Div", "Elu", "Equal", "Erf", "Exp", "Expand", "Flatten", "Floor", "Gather", "Gelu", "Gemm", "GlobalAveragePool",
    "GlobalMaxPool", "Greater", "GreaterOrEqual", "HardSigmoid", "HardSwish", "Identity", "If", "InstanceNormalization",
    "LayerNormalization", "LeakyRelu", "Less", "LessOrEqual", "Log", "LogSoftmax", "Loop", "MatMul", "Max", "Mean",
    "Min", "Mod", "Mul", "Neg", "Not", "OneHot", "Or", "PRelu", "Pow", "Reciprocal", "ReduceL2", "ReduceMean",
    "ReduceProd", "Relu", "Round", "Selu", "Sigmoid", "Sign", "Sin", "Softmax", "Softplus", "Sqrt", "Sub", "Sum",
    "Tanh", "Tile", "TopK", "Transpose", "Trilu", "Where", "Xor",
    # beyond the basics: recurrent nets, sampling, shape ops with run-time axes, normalisations
    "DepthToSpace", "GatherElements", "GridSample", "GroupNormalization", "GRU", "Hardmax", "NonZero",
    "RMSNormalization", "RNN", "Squeeze", "Swish", "Unsqueeze", "Upsample",
}  # fmt: skip


@functools.cache
def ci_cases() -> dict:
    cases = applicable_cases()
    ops = case_ops(cases)
    return {c.name: (c, ops[c.name]) for c in cases if ops[c.name] in CI_OPS}


@pytest.mark.parametrize("name", sorted(ci_cases()))
def test_conformance_case(name, tmp_path):
    case, op = ci_cases()[name]
    result = run_case(case, op, workdir=tmp_path)
    assert result.ok, f"{result.stage}: {result.reason}"
