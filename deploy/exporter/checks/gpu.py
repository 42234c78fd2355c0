"""--target gpu: LiteRT GPU delegate compatibility of each TFLite operator.

The first choice is ai-edge-litert's own model analyzer (``ModelAnalyzer(..., gpu_compatibility=
True)``), whose report marks each incompatible operator with a "GPU COMPATIBILITY WARNING" line.
Some ai-edge-litert builds ship the analyzer without its GPU checker (it then calls every model
compatible, even one with an unknown custom op). That is detected once per process with a probe
model the GPU delegate cannot take; in that case the rules of the checker the analyzer would run
(tensorflow/lite/tools/versioning/gpu_compatibility.cc, CheckGpuDelegateCompatibility) are
applied here: its op table, its Cast type rule, its const-input rules and its constant-axes rule.
"""

from __future__ import annotations

import functools
import re

from deploy.exporter.checks.gpu_rules import rule_verdict
from deploy.exporter.checks.report import Occurrence
from deploy.exporter.checks.tflite_graph import TfliteGraph, TfliteOp, read_graph

_SUBGRAPH = re.compile(r"^Subgraph#(\d+)")
_OP = re.compile(r"^\s*Op#(\d+) (\S+?)\(")
_WARNING = "GPU COMPATIBILITY WARNING: "


def analyzer_text(data: bytes) -> str:
    from ai_edge_litert import _pywrap_analyzer_wrapper

    return _pywrap_analyzer_wrapper.ModelAnalyzer(data, False, True)


def analyzer_warnings(text: str) -> dict[tuple[int, int], str]:
    """(subgraph, op index) -> the analyzer's warning for each incompatible operator."""
    warnings, subgraph, last = {}, 0, None
    for line in text.splitlines():
        if m := _SUBGRAPH.match(line):
            subgraph, last = int(m.group(1)), None
        elif m := _OP.match(line):
            last = (subgraph, int(m.group(1)))
            if _WARNING in line:
                warnings[last] = line.split(_WARNING, 1)[1].strip()
        elif line.strip().startswith(_WARNING) and "Subgraph#" not in line and last is not None:
            warnings[last] = line.strip()[len(_WARNING) :]
    return warnings


def _probe_model() -> bytes:
    """One CUSTOM op the GPU delegate has no parser for: a working checker must flag it."""
    import flatbuffers
    from ai_edge_litert import schema_py_generated as schema

    def tensor(name):
        t = schema.TensorT()
        t.name, t.shape, t.type, t.buffer = name, [1, 4], schema.TensorType.FLOAT32, 0
        return t

    code = schema.OperatorCodeT()
    code.builtinCode = code.deprecatedBuiltinCode = schema.BuiltinOperator.CUSTOM
    code.customCode, code.version = "DeployGpuProbe", 1
    op = schema.OperatorT()
    op.opcodeIndex, op.inputs, op.outputs = 0, [0], [1]
    subgraph = schema.SubGraphT()
    subgraph.tensors, subgraph.inputs, subgraph.outputs, subgraph.operators = (
        [tensor("x"), tensor("y")],
        [0],
        [1],
        [op],
    )
    model = schema.ModelT()
    model.version, model.operatorCodes, model.subgraphs, model.buffers = (
        3,
        [code],
        [subgraph],
        [schema.BufferT()],
    )
    builder = flatbuffers.Builder(256)
    builder.Finish(model.Pack(builder), file_identifier=b"TFL3")
    return bytes(builder.Output())


@functools.cache
def analyzer_checks_gpu() -> bool:
    """Whether this ai-edge-litert's analyzer really runs the GPU compatibility checker."""
    try:
        return bool(analyzer_warnings(analyzer_text(_probe_model())))
    except Exception:  # no analyzer in this build at all
        return False


def _verdicts(data: bytes, graph: TfliteGraph) -> tuple[dict[tuple[int, int], str], str]:
    if analyzer_checks_gpu():
        return analyzer_warnings(analyzer_text(data)), "ai-edge-litert's GPU analyzer"
    verdicts = {}
    for op in graph.ops:
        reason = rule_verdict(op, graph)
        if reason:
            verdicts[(op.subgraph, op.index)] = reason
    return verdicts, "the GPU delegate's compatibility rules (gpu_compatibility.cc)"


def gpu_occurrences(data: bytes, where_of: dict) -> tuple[list[Occurrence], list[str]]:
    """One Occurrence per operator: would the LiteRT GPU delegate take it?"""
    graph = read_graph(data)
    verdicts, source = _verdicts(data, graph)
    notes = []
    if not analyzer_checks_gpu():
        notes.append(
            "this ai-edge-litert's analyzer has no GPU checker (it passes any model); "
            "applied the GPU delegate's compatibility rules instead"
        )
    found = []
    for op in graph.ops:
        key: tuple[int, int] = (op.subgraph, op.index)
        reason = verdicts.get(key)
        found.append(
            Occurrence(
                op.name, reason is None, f"{reason} (per {source})" if reason else "", where_of.get(key)
            )
        )
    return found, notes


__all__ = ["gpu_occurrences", "analyzer_checks_gpu", "TfliteOp"]
