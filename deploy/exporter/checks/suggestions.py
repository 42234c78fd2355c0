"""What to do about an unsupported op: a rewrite, an equivalent supported op, or a custom op.

Specific advice is keyed by op name (aten, ONNX or TFLite spelling); every target also has a
general fallback, so an unsupported row never comes without a suggestion.
"""

from __future__ import annotations

SPECIFIC = {
    # aten ops torch.onnx has no translation for
    "aten.cummax.default": "rewrite with a loop of torch.maximum over the dim, or register a custom_translation_table entry",
    "aten.cummin.default": "rewrite with a loop of torch.minimum over the dim, or register a custom_translation_table entry",
    "aten.kthvalue.default": "use torch.topk(x, k, largest=False).values[..., -1] (TopK translates)",
    "aten.median.dim": "use torch.sort and index the middle element (Sort/TopK translate)",
    "aten.mode.default": "compute it outside the model, or register a custom_translation_table entry",
    "aten.searchsorted.Tensor": "use (x.unsqueeze(-1) > boundaries).sum(-1) instead",
    "aten._linalg_eigh.default": "compute the decomposition outside the model or pass it in as an input",
    "aten.linalg_qr.default": "compute the decomposition outside the model or pass it in as an input",
    # onnxruntime CPU gaps that come from float64 or narrow integer types
    "Erf": "compute in float32 (drop .double()); GELU: approximate='tanh' avoids Erf entirely",
    "Conv": "run the convolution in float32 (onnxruntime's CPU Conv has no float64 kernel)",
    "Softplus": "compute in float32, or use torch.log1p(torch.exp(x))",
    "HardSigmoid": "compute in float32, or use torch.clamp(x / 6 + 0.5, 0, 1)",
    "Det": "compute in float32, or compute the determinant outside the model",
    "Where": "cast the operands to int32/float32 before torch.where",
    # ONNX ops deploy's TFLite lowering lacks
    "CumSum": "rewrite as a matmul with a triangular ones matrix (torch.tril(torch.ones(n, n)))",
    "TopK": "avoid top-k inside the model (sort outside), or add a lowering with @lower('TopK')",
    "ScatterND": "rewrite the in-place update as torch.where with a mask",
    # TFLite ops a delegate does not take
    "SIGN": "use x / (x.abs() + eps) or torch.where(x > 0, 1, -1) (both delegate), or accept the CPU fallback",
    "LOG_SOFTMAX": "use x - torch.logsumexp(x, dim, keepdim=True) (SUB/EXP/SUM delegate)",
    "ARG_MAX": "return the scores and take the argmax on the host",
    "ARG_MIN": "return the scores and take the argmin on the host",
    "GATHER_ND": "use index_select with 1-D int32 indices, or move the gather to the host",
    "WHILE": "unroll a short loop with a fixed trip count, or run the loop on the host",
}

GENERAL = {
    "onnx": "rewrite it with ops torch.onnx translates, or register a translation in custom_translation_table",
    "tflite": "rewrite it with supported ops, or add a lowering with @deploy.runtimes.tflite.registry.lower(op)",
    "xnnpack": "it runs on TFLite's built-in CPU kernel instead: rewrite with ops XNNPACK takes, or accept the fallback",
    "gpu": "it runs on the CPU instead (extra GPU<->CPU copies): rewrite with GPU-supported ops",
    "nnapi": "it runs on the CPU provider: rewrite with ops NNAPI takes, fix dynamic shapes, or accept the split",
    "coreml": "it runs on the CPU provider: rewrite with ops CoreML takes, fix dynamic shapes, or accept the split",
}


def suggester(target: str):
    """A function (op, reason) -> suggestion for ``target``."""

    def suggest(op: str, reason: str) -> str:
        if "dynamic shape" in reason:
            return "export with --static (or fix the dims with onnxruntime.tools.make_dynamic_shape_fixed)"
        if op in SPECIFIC:
            return SPECIFIC[op]
        short = op.split(":")[-1]
        return SPECIFIC.get(
            short, GENERAL.get(target, "rewrite it with supported ops or register a custom op")
        )

    return suggest
