"""check-ops: what a backend cannot run, why, and where in the user's source (issue #5).

``check_ops(model_or_path, target)`` takes a model.py (or nn.Module), a .onnx or a .tflite and
returns an OpsReport with one row per op type. Every node is judged, so one run lists all the
problems. ``precheck`` runs the same checks inside ``deploy export`` on what the pipeline has
already built (no extra torch.export).

Targets: onnx (torch.onnx translation + onnxruntime CPU), tflite (deploy's TFLite lowering),
xnnpack (LiteRT's default delegate, measured on the interpreter), gpu (LiteRT GPU delegate
compatibility), nnapi / coreml (onnxruntime's mobile usability checker).
"""

from __future__ import annotations

from typing import Any

from deploy.errors import InputError, UnsupportedOpError
from deploy.exporter.checks.report import Occurrence, OpRow, OpsReport, build_report, format_table
from deploy.exporter.checks.sources import (
    exported_program,
    input_kind,
    load_onnx,
    load_tflite,
    onnx_where,
    to_onnx,
)
from deploy.exporter.checks.suggestions import suggester

TARGETS = ("onnx", "tflite", "xnnpack", "gpu", "nnapi", "coreml")
TFLITE_TARGETS = ("xnnpack", "gpu")


def _report(target: str, occurrences: list[Occurrence], notes: list[str] | None = None) -> OpsReport:
    return build_report(target, occurrences, suggester(target), notes)


def _onnx_or_report(ep: Any, target: str, options: dict) -> tuple[Any, OpsReport | None]:
    """The ONNX graph of ``ep``; when torch.onnx cannot translate it, a report naming the aten ops instead."""
    from deploy.exporter.checks.onnx_target import translation_occurrences

    try:
        return to_onnx(ep, options.get("opset")), None
    except UnsupportedOpError as exc:
        found, notes = translation_occurrences(ep, options.get("opset"))
        if all(o.supported for o in found):
            found.append(Occurrence("(program)", False, str(exc)))
        notes.append(
            f"torch.onnx cannot translate the program, so --target {target} was checked on its aten ops"
        )
        return None, _report(target, found, notes)


def check_onnx_program(ep: Any, options: dict) -> OpsReport:
    from deploy.exporter.checks.onnx_target import runtime_occurrences, translation_occurrences

    found, notes = translation_occurrences(ep, options.get("opset"))
    if not all(o.supported for o in found):
        return _report("onnx", found, notes)
    model, failed = _onnx_or_report(ep, "onnx", options)
    if failed is not None:
        return failed
    return _report("onnx", runtime_occurrences(model, onnx_where), notes)


def check_onnx_model(model: Any, target: str, options: dict) -> OpsReport:
    """Every target on an ONNX graph (from a .onnx or from torch.onnx)."""
    if target == "onnx":
        from deploy.exporter.checks.onnx_target import runtime_occurrences

        return _report(target, runtime_occurrences(model, onnx_where))
    if target in ("nnapi", "coreml"):
        from deploy.exporter.checks.mobile import mobile_occurrences

        found, notes = mobile_occurrences(model, target, options.get("coreml_format", "mlprogram"))
        return _report(target, found, notes)
    from deploy.exporter.checks.tflite_target import lower_to_bytes, lowering_occurrences

    found = lowering_occurrences(model)
    if not all(o.supported for o in found):
        notes = (
            []
            if target == "tflite"
            else [f"the TFLite lowering fails, so {target} was checked on the ONNX ops"]
        )
        return _report(target, found, notes)
    from deploy.exporter.checks.sources import onnx_sources
    from deploy.exporter.checks.tflite_graph import op_sources, read_graph
    from deploy.exporter.checks.tflite_target import resolver_occurrences

    data = lower_to_bytes(model)
    where_of = op_sources(read_graph(data), onnx_sources(model))
    if target == "tflite":  # every node lowers; LiteRT must also be able to prepare what was written
        return _report(target, found + [o for o in resolver_occurrences(data, where_of) if not o.supported])
    return check_tflite_bytes(data, target, where_of)


def check_tflite_bytes(data: bytes, target: str, where_of: dict | None = None) -> OpsReport:
    """tflite / xnnpack / gpu on a TFLite flatbuffer; ``where_of`` maps (subgraph, op) to source lines."""
    where_of = where_of or {}
    if target == "xnnpack":
        from deploy.exporter.checks.xnnpack import delegation_occurrences

        return _report(target, delegation_occurrences(data, where_of))
    if target == "gpu":
        from deploy.exporter.checks.gpu import gpu_occurrences

        found, notes = gpu_occurrences(data, where_of)
        return _report(target, found, notes)
    from deploy.exporter.checks.tflite_target import resolver_occurrences

    return _report(target, resolver_occurrences(data))


def check_ops(model_or_path: Any, target: str = "onnx", **options: Any) -> OpsReport:
    """What ``target`` cannot run in a model.py / nn.Module / .onnx / .tflite, why, and where.

    Options: opset (ONNX opset for --target onnx), coreml_format ('mlprogram' or 'neuralnetwork'),
    and for a model: model_fn, inputs_fn, example_inputs (nn.Module), dynamic_shapes, static, rewrite.
    Bad input (missing file, unknown target, a suffix the target cannot take) raises InputError.
    """
    target = str(target).strip().lower()
    if target not in TARGETS:
        raise InputError(f"unknown check-ops target {target!r}; choose from {', '.join(TARGETS)}")
    kind = input_kind(model_or_path, target)
    if kind == "tflite":
        return check_tflite_bytes(load_tflite(model_or_path), target)
    if kind == "onnx":
        return check_onnx_model(load_onnx(model_or_path), target, options)
    ep = exported_program(model_or_path, options)
    if target == "onnx":
        return check_onnx_program(ep, options)
    model, failed = _onnx_or_report(ep, target, options)
    return failed if failed is not None else check_onnx_model(model, target, options)


def precheck(targets: list[str], *, exported_program: Any = None, onnx_model: Any = None) -> list[OpsReport]:
    """The check-ops reports ``deploy export`` runs before emitting, on what it already has.

    onnx: translation of every aten op of ``exported_program`` (no extra torch.export, no ONNX
    export); with ``onnx_model`` also onnxruntime's CPU provider. tflite: deploy's lowering of
    ``onnx_model`` (skipped without one). Other export targets (cuda, cpu) have no check.
    """
    from deploy.exporter.checks.onnx_target import runtime_occurrences, translation_occurrences

    reports = []
    if "onnx" in targets and exported_program is not None:
        found, notes = translation_occurrences(exported_program)
        if onnx_model is not None and all(o.supported for o in found):
            found = runtime_occurrences(onnx_model, onnx_where)
        reports.append(_report("onnx", found, notes))
    elif "onnx" in targets and onnx_model is not None:
        reports.append(check_onnx_model(onnx_model, "onnx", {}))
    if "tflite" in targets and onnx_model is not None:
        reports.append(check_onnx_model(onnx_model, "tflite", {}))
    return reports


__all__ = ["check_ops", "precheck", "OpsReport", "OpRow", "TARGETS", "format_table"]
