"""The export pipeline: load -> freeze -> rewrite -> torch.export -> emit each target -> verify -> report."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from deploy import runtimes
from deploy.atomic import write_text
from deploy.errors import DeployError
from deploy.exporter.export import export_program
from deploy.exporter.freeze import freeze
from deploy.exporter.loader import LoadedModel
from deploy.exporter.report import ArtifactResult, build_report, input_entries, write_report
from deploy.exporter.shapes import dynamic_dims
from deploy.exporter.targets import EmitContext, check_available, emit, fail_on_unsupported, parse_targets
from deploy.exporter.verify import ATOL, RTOL, Case, build_cases, eager_reference, verify

Progress = Callable[[str], None]


@dataclass
class ExportOptions:
    targets: list[str] = field(default_factory=lambda: ["onnx"])
    out: Path | None = None
    static: bool = False
    rewrite: bool = True
    dump_graph: bool = False
    rtol: float = RTOL
    atol: float = ATOL
    channels_last_io: bool = False


@dataclass
class ExportResult:
    """What deploy.export returns: artifacts by target, the report dict, and the output directory."""

    artifacts: dict[str, ArtifactResult]
    report: dict[str, Any]
    out_dir: Path
    errors: list[DeployError] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return bool(self.report.get("ok"))


def dump_enabled(options: ExportOptions) -> bool:
    return options.dump_graph or os.environ.get("DEPLOY_DUMP_GRAPH", "") not in ("", "0")


def _rewrite(module, loaded: LoadedModel, dynamic, progress: Progress):
    import deploy.rewriters

    rewrite_module = getattr(deploy.rewriters, "rewrite_module", None)
    if rewrite_module is None:  # TEMPORARY until the rewriters land
        return None
    result = rewrite_module(module, loaded.example_inputs, dynamic)
    for r in result.rewrites:
        progress(f"rewrite {r.kind} at {Path(r.file).name}:{r.line}: {r.what}")
    return result


def _coverage_cases(rewritten, loaded: LoadedModel, cases: list[Case]) -> tuple[list[Case], dict]:
    """Extra cases that flip converted predicates, and the branches all cases cover."""
    from deploy.rewriters.coverage import select_covering_inputs

    extra, covered = select_covering_inputs(rewritten, loaded.example_inputs, [c.inputs for c in cases])
    return [Case(f"branch-flip[{i}]", x) for i, x in enumerate(extra)], covered


def export_model(
    loaded: LoadedModel, options: ExportOptions, progress: Progress = lambda _: None
) -> ExportResult:
    """Run the whole pipeline on a loaded model.py / nn.Module."""
    targets = parse_targets(options.targets)
    check_available(targets)
    out_dir = Path(options.out) if options.out else Path("deploy_out") / loaded.name
    dump_dir = out_dir / "graphs" if dump_enabled(options) else None
    reference_module = loaded.module.eval()
    progress("freeze: eval mode, no grad, fold BatchNorm, drop dropout")
    frozen = freeze(reference_module)
    module, rewrites, extra_info = frozen.module, [], {}
    dynamic = None if options.static else loaded.dynamic_shapes
    if options.rewrite:
        rewritten = _rewrite(module, loaded, dynamic, progress)
        if rewritten is not None:
            module, rewrites = rewritten.module, rewritten.rewrites
    progress("torch.export" + (" (--static: every dim specialised to the example)" if options.static else ""))
    start = time.perf_counter()
    ep, export_notes = export_program(module, loaded.example_inputs, dynamic)
    export_seconds = time.perf_counter() - start
    if dump_dir is not None:
        write_text(dump_dir / "exported_program.txt", str(ep))
    progress("check-ops for " + ", ".join(targets))
    fail_on_unsupported(targets, exported_program=ep)
    dims = dynamic_dims(ep)
    cases = build_cases(loaded.example_inputs, dims, loaded.verify_inputs)
    if rewrites:
        flips, covered = _coverage_cases(module, loaded, cases)
        cases += flips
        extra_info["branches"] = covered
    ctx = EmitContext(
        out_dir=out_dir, exported_program=ep, dump_dir=dump_dir, channels_last_io=options.channels_last_io
    )
    artifacts, errors = emit_and_verify(
        targets, ctx, eager_reference(reference_module), cases, options, progress
    )
    names = list(ep.graph_signature.user_inputs)
    extra_info["freeze"] = {
        "folded_batchnorms": frozen.folded_batchnorms,
        "removed_dropouts": frozen.removed_dropouts,
        "notes": frozen.notes,
    }
    extra_info["export"] = {
        "seconds": round(export_seconds, 3),
        "static": options.static,
        "notes": export_notes + ctx.notes,
    }
    extra_info["verification"] = {
        "rtol": options.rtol,
        "atol": options.atol,
        "cases": [c.label for c in cases],
    }
    model_info = {
        "name": loaded.name,
        "path": str(loaded.path) if loaded.path else None,
        "class": type(reference_module).__name__,
    }
    report = build_report(
        model=model_info,
        inputs=input_entries(names, loaded.example_inputs, dims),
        artifacts=artifacts,
        rewrites=rewrites,
        extra=extra_info,
    )
    write_report(report, out_dir)
    return ExportResult(artifacts, report, out_dir, errors)


def emit_and_verify(targets, ctx: EmitContext, reference, cases, options: ExportOptions, progress: Progress):
    """Emit every target; a target that fails is recorded and the others still run."""
    artifacts: dict[str, ArtifactResult] = {}
    errors: list[DeployError] = []
    for target in targets:
        result = ArtifactResult(target)
        artifacts[target] = result
        try:
            progress(f"emit {target}")
            info = emit(target, ctx)
            result.path, result.bytes = Path(info["path"]), info["bytes"]
            result.ops, result.export_seconds = info.get("ops", {}), info.get("seconds", 0.0)
            result.notes = list(info.get("notes", []))
            progress(f"verify {target} on {len(cases)} input sets")
            session = runtimes.load(result.path)
            result.parity = verify(session, reference, cases, options.rtol, options.atol)
        except DeployError as exc:
            result.errors.append(str(exc))
            errors.append(exc)
    return artifacts, errors
