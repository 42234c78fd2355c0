"""--target nnapi / coreml: onnxruntime's own mobile usability logic, per node.

``onnxruntime.tools.check_onnx_model_mobile_usability`` optimizes the model (BASIC level), runs
shape inference and partitions the graph with the execution provider's supported-op list
(``usability_checker.check_nnapi_partitions`` / ``check_coreml_partitions``). The same functions
run here; a node is supported when it lands in one of the partitions, and an unsupported node's
reason is the checker's own criterion it failed: op not in the list, dynamic input shape, rank.
"""

from __future__ import annotations

import logging
import tempfile
from pathlib import Path

import onnx

from deploy.exporter.checks.report import Occurrence
from deploy.exporter.checks.sources import onnx_sources, onnx_where, walk_onnx

EP_NAMES = {"nnapi": "NNAPI", "coreml": "CoreML"}
COREML_LISTS = {
    "mlprogram": "coreml_supported_mlprogram_ops.md",
    "neuralnetwork": "coreml_supported_neuralnetwork_ops.md",
}
COREML_MAX_RANK = 5  # usability_checker.check_coreml_partitions


def _optimized_with_shapes(model: onnx.ModelProto) -> tuple[onnx.ModelProto, str | None]:
    """BASIC-level optimized model with shape info, as the usability checker prepares it, and a note.

    onnxruntime optimizes by creating a CPU session; when it cannot (an op without a CPU kernel),
    the model is checked unoptimized, with ONNX shape inference only.
    """
    from onnxruntime.tools.onnx_model_utils import ModelProtoWithShapeInfo, optimize_model

    with tempfile.TemporaryDirectory(prefix="deploy-check-") as tmp:
        source, optimized = Path(tmp) / "model.onnx", Path(tmp) / "optimized.onnx"
        onnx.save(model, str(source))
        try:
            optimize_model(source, optimized, use_external_initializers=True)
        except Exception as exc:  # onnxruntime's own error types
            first = str(exc).strip().splitlines()[0][:200] if str(exc).strip() else type(exc).__name__
            note = f"onnxruntime could not optimize the model ({first}); checked it unoptimized"
            return onnx.shape_inference.infer_shapes(model), note
        shaped = ModelProtoWithShapeInfo(optimized).model_with_shape_info
        onnx.load_external_data_for_model(shaped, tmp)
        return shaped, None


def _partitions(model: onnx.ModelProto, target: str, coreml_format: str):
    from onnxruntime.tools.mobile_helpers import usability_checker

    logging.getLogger("usability_checker").setLevel(logging.WARNING)
    if target == "nnapi":
        return usability_checker.check_nnapi_partitions(model, require_fixed_input_sizes=True)
    return usability_checker.check_coreml_partitions(model, True, COREML_LISTS[coreml_format])


def _value_info(graph: onnx.GraphProto, into: dict) -> dict:
    for value in [*graph.input, *graph.output, *graph.value_info]:
        into[value.name] = value
    for node in graph.node:
        for attr in node.attribute:
            if attr.type == onnx.AttributeProto.GRAPH:
                _value_info(attr.g, into)
    return into


def _reason(
    node: onnx.NodeProto, info, value_info: dict, initializers: set, target: str, max_rank: int
) -> str:
    """The usability checker's criterion that ``node`` fails (same order as _check_partitioning_for_graph)."""
    from onnxruntime.tools.onnx_model_utils import is_fixed_size_tensor

    ep = EP_NAMES[target]
    domain = node.domain or "ai.onnx"
    if not info.supported_ops_checker.is_op_supported(node):
        return f"{domain}:{node.op_type} is not in onnxruntime's {ep} supported-op list"
    dynamic = [i for i in node.input if i and i not in initializers
               and not (i in value_info and is_fixed_size_tensor(value_info[i]))]  # fmt: skip
    if dynamic:
        return f"input {dynamic[0]!r} has a dynamic or unknown shape ({ep} needs fixed sizes)"
    for i in node.input:
        value = value_info.get(i)
        if (
            value is not None
            and value.type.HasField("tensor_type")
            and len(value.type.tensor_type.shape.dim) > max_rank
        ):
            return f"input {i!r} has rank {len(value.type.tensor_type.shape.dim)} > {max_rank}"
    return f"{ep} partitioning left it out"


def mobile_occurrences(
    model: onnx.ModelProto, target: str, coreml_format: str = "mlprogram"
) -> tuple[list[Occurrence], list[str]]:
    """One Occurrence per node of the optimized graph: does it land in an NNAPI/CoreML partition?"""
    names = {n.name: onnx_where(n) for n in walk_onnx(model.graph) if n.name}
    by_output = onnx_sources(model)
    shaped, optimize_note = _optimized_with_shapes(model)
    info = _partitions(shaped, target, coreml_format)
    in_partition = {id(node) for group in info.supported_groups for node in group}
    value_info = _value_info(shaped.graph, {})
    initializers = {i.name for i in shaped.graph.initializer}
    for node in walk_onnx(shaped.graph):
        for attr in node.attribute:
            if attr.type == onnx.AttributeProto.GRAPH:
                initializers.update(i.name for i in attr.g.initializer)
    max_rank = COREML_MAX_RANK if target == "coreml" else 999
    found = []
    for node in walk_onnx(shaped.graph):
        where = names.get(node.name) or next((by_output[o] for o in node.output if o in by_output), None)
        if id(node) in in_partition:
            found.append(Occurrence(node.op_type, True, where=where))
        else:
            reason = _reason(node, info, value_info, initializers, target, max_rank)
            found.append(Occurrence(node.op_type, False, reason, where))
    notes = [f"{EP_NAMES[target]}: {info.num_partitions} partition(s) cover {info.num_supported_nodes}/"
             f"{info.num_nodes} nodes; suitability {info.suitability().name}"]  # fmt: skip
    if optimize_note:
        notes.append(optimize_note)
    caveats = info.supported_ops_checker.get_caveats()
    if caveats:
        notes.append("unchecked caveats: " + "; ".join(c.strip() for c in caveats))
    return found, notes
