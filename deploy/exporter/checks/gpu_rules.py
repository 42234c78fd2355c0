"""The LiteRT GPU delegate's per-operator compatibility rules, for builds whose analyzer lacks them.

Transcribed from tensorflow/lite/tools/versioning/gpu_compatibility.cc (CheckGpuDelegateCompatibility,
the checker ai-edge-litert's analyzer runs when it is compiled in); only rules that can be decided
from the flatbuffer alone are kept. Each returns the checker's own message for a rejected operator.
"""

from __future__ import annotations

from deploy.exporter.checks.tflite_graph import TfliteGraph, TfliteOp

UNARY = {"ABS", "CEIL", "COS", "ELU", "EXP", "FLOOR", "GELU", "LOG", "LOGISTIC", "NEG", "RSQRT", "SIGN", "SIN",
         "SQRT", "SQUARE", "TANH"}  # fmt: skip
BINARY = {"ATAN2", "DIV", "EQUAL", "FLOOR_DIV", "FLOOR_MOD", "GREATER", "GREATER_EQUAL", "LOGICAL_AND", "LESS",
          "LESS_EQUAL", "MAXIMUM", "MINIMUM", "NOT_EQUAL", "POW", "SQUARED_DIFFERENCE", "SUB"}  # fmt: skip
REDUCTIONS = {"MEAN", "SUM", "REDUCE_MAX", "REDUCE_MIN", "REDUCE_PROD"}
OTHER = {"ADD", "ADD_N", "AVERAGE_POOL_2D", "BATCH_MATMUL", "CAST", "CONCATENATION", "CONV_2D", "CUMSUM", "DENSIFY",
         "DEPTHWISE_CONV_2D", "DEPTH_TO_SPACE", "DEQUANTIZE", "EMBEDDING_LOOKUP", "DYNAMIC_UPDATE_SLICE",
         "FULLY_CONNECTED", "GATHER", "HARD_SWISH", "LSTM", "MAX_POOL_2D", "MUL", "PACK", "ONE_HOT", "QUANTIZE",
         "RELU_N1_TO_1", "PRELU", "RESHAPE", "SELECT", "SELECT_V2", "SLICE", "SOFTMAX", "SPACE_TO_DEPTH", "SPLIT",
         "SPLIT_V", "STRIDED_SLICE", "TILE", "TRANSPOSE", "TRANSPOSE_CONV", "RESIZE_BILINEAR",
         "RESIZE_NEAREST_NEIGHBOR", "RELU", "RELU6", "LEAKY_RELU", "PAD", "PADV2", "MIRROR_PAD",
         "STABLEHLO_CLAMP"}  # fmt: skip
GPU_OPS = UNARY | BINARY | REDUCTIONS | OTHER
GPU_CUSTOM_OPS = {"Convolution2DTransposeBias", "MaxPoolingWithArgmax2D", "MaxUnpooling2D", "Resampler"}
_FLOAT = {"FLOAT32", "FLOAT16"}


def _counts(op: TfliteOp, graph: TfliteGraph) -> tuple[int, int]:
    """(runtime inputs, constant inputs) of ``op``; omitted optional inputs (-1) count as neither."""
    const = [graph.constant[op.subgraph][int(t)] for t in op.inputs if int(t) >= 0]
    return const.count(False), const.count(True)


def _cast(op: TfliteOp, graph: TfliteGraph) -> str | None:
    types = graph.tensor_types[op.subgraph]
    source, target = types[int(op.inputs[0])], types[int(op.outputs[0])]
    ok = (
        (source == "BOOL" and target in _FLOAT)
        or (source in _FLOAT and target == "BOOL")
        or (source in ("FLOAT32", "INT32") and target in ("FLOAT32", "INT32"))
    )
    return None if ok else f"Not supported Cast case. Input type: {source} and output type: {target}"


def rule_verdict(op: TfliteOp, graph: TfliteGraph) -> str | None:
    """The GPU checker's message for an operator it rejects, or None when it accepts it."""
    if op.name.startswith("CUSTOM:"):
        name = op.name[len("CUSTOM:") :]
        return None if name in GPU_CUSTOM_OPS else f"Not supported custom op {name}"
    if op.name not in GPU_OPS:
        return f"Not supported op {op.name}"
    runtime, const = _counts(op, graph)
    if op.name == "CAST":
        return _cast(op, graph)
    if op.name in UNARY and (runtime, const) != (1, 0):
        return f"Expected 1 runtime input and no constant input, but node has {runtime} and {const}"
    if op.name in BINARY and (runtime, const) not in ((2, 0), (1, 1)):
        return "Op can only handle 1 or 2 operand(s)."
    if op.name in REDUCTIONS and len(op.inputs) > 1:
        axes = int(op.inputs[1])
        if not graph.constant[op.subgraph][axes]:
            return f"{op.name} is only supported with constant axes."
        if graph.tensor_types[op.subgraph][axes] != "INT32":
            return f"{op.name} supports int32 tensor for axes. But node has {graph.tensor_types[op.subgraph][axes]}"
    if op.name in ("SLICE", "STRIDED_SLICE"):
        rank = len(graph.tensor_shapes[op.subgraph][int(op.inputs[0])])
        if rank not in (3, 4):
            return f"{op.name} supports for 3 or 4 dimensional tensors only, but node has {rank} dimensional tensors."
    return None
