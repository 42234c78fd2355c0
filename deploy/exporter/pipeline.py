"""The export pipeline: load -> freeze -> rewrite -> torch.export -> emit each target -> verify -> report."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from deploy import runtimes
from deploy.atomic import write_text
from deploy.errors import DeployError
from deploy.exporter.branches import covering_cases
from deploy.exporter.export import export_program
from deploy.exporter.freeze import freeze
from deploy.exporter.loader import LoadedModel
from deploy.exporter.other_examples import export_at_some_example
from deploy.exporter.report import ArtifactResult, build_report, input_entries, write_report
from deploy.exporter.retry_dir import better_of
from deploy.exporter.shapes import dynamic_dims
from deploy.exporter.targets import EmitContext, check_available, check_before_emitting, emit, parse_targets
from deploy.exporter.verify import ATOL, RTOL, build_cases, eager_reference, runnable_cases, verify
from deploy.rewriters.window_spans import static_spans
from deploy.runtimes.isolated import IsolatedSession

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


@dataclass
class Traced:
    """The program torch.export produced, and what the stages before it did."""

    program: Any
    module: Any  # the frozen (and rewritten) module that was exported
    freeze: dict[str, Any]
    rewrites: list[Any]
    seconds: float
    notes: list[str]


def rewritten_sources(module) -> str:
    """The Python the rewriters generated for each converted forward, for --dump-graph."""
    from deploy.rewriters.convert import converted_source

    parts, seen = [], set()
    for sub in module.modules():
        forward = getattr(type(sub), "forward", None)
        if forward is None or forward in seen or not hasattr(forward, "__code__"):
            continue
        seen.add(forward)
        source = converted_source(forward)
        if source:
            parts.append(f"# {type(sub).__qualname__}.forward ({forward.__code__.co_filename})\n{source}\n")
    return "\n".join(parts) or "# no control flow was converted\n"


def trace(loaded: LoadedModel, options: ExportOptions, progress: Progress, dump_dir: Path | None) -> Traced:
    """freeze -> rewrite control flow -> torch.export; rewrites are known once torch has traced."""
    progress("freeze: eval mode, no grad, fold BatchNorm, drop dropout")
    frozen = freeze(loaded.module)
    module, rewritten = frozen.module, None
    dynamic = None if options.static else loaded.dynamic_shapes
    if options.rewrite:
        from deploy.rewriters import rewrite_module

        rewritten = rewrite_module(module, loaded.example_inputs, dynamic)
        module = rewritten.module
    progress("torch.export" + (" (--static: every dim specialised to the example)" if options.static else ""))
    start = time.perf_counter()
    program, notes = export_at_some_example(
        module, loaded.example_inputs, loaded.verify_inputs, dynamic, export_program
    )
    seconds = time.perf_counter() - start
    if options.static:
        notes.append("--static: every dim specialised to the example inputs' sizes")
    rewrites = rewritten.rewrites if rewritten is not None else []
    if dump_dir is not None and rewritten is not None:
        write_text(dump_dir / "rewritten_source.py", rewritten_sources(loaded.module))
    for r in rewrites:
        progress(f"rewrite {r.kind} at {Path(r.file).name}:{r.line}: {r.what}")
    if dump_dir is not None:
        write_text(dump_dir / "exported_program.txt", str(program))
    folded = {
        "folded_batchnorms": frozen.folded_batchnorms,
        "removed_dropouts": frozen.removed_dropouts,
        "notes": frozen.notes,
    }
    return Traced(program, module, folded, rewrites, seconds, notes)


def export_model(
    loaded: LoadedModel, options: ExportOptions, progress: Progress = lambda _: None
) -> ExportResult:
    """Run the whole pipeline on a loaded model.py / nn.Module. Windows ``x[t : t + k]`` in loop
    bodies are first read as Python reads them; when a target then fails, the whole pipeline runs
    again with each read as ``k`` entries (rewriters/window_spans.py), kept where it verifies more."""
    with static_spans(False) as spans:
        try:
            first = _export_once(loaded, options, progress)
        except DeployError as exc:
            if not spans.asked:
                raise
            first, first_error = None, exc
        if first is not None and (first.ok or not spans.asked):
            return first
    progress("again with windows x[t : t + k] read as k entries")
    with static_spans(True):
        if first is not None:
            return better_of(first, lambda out: _export_once(loaded, replace(options, out=out), progress))
        try:
            return _export_once(loaded, options, progress)
        except DeployError:
            pass  # the error of the run that reads the model as Python does is the one to show
    raise first_error


def _export_once(loaded: LoadedModel, options: ExportOptions, progress: Progress) -> ExportResult:
    targets = parse_targets(options.targets)
    check_available(targets)
    out_dir = Path(options.out) if options.out else Path("deploy_out") / loaded.name
    dump_dir = out_dir / "graphs" if dump_enabled(options) else None
    reference = loaded.module.eval()
    traced = trace(loaded, options, progress, dump_dir)
    ctx = EmitContext(
        out_dir=out_dir,
        exported_program=traced.program,
        dump_dir=dump_dir,
        channels_last_io=options.channels_last_io,
    )
    progress("check-ops for " + ", ".join(targets))
    check_before_emitting(targets, ctx)
    dims = dynamic_dims(traced.program)
    cases = build_cases(loaded.example_inputs, dims, loaded.verify_inputs)
    extra: dict[str, Any] = {"freeze": traced.freeze}
    if traced.rewrites:
        flips, extra["branches"] = covering_cases(traced.module, loaded.example_inputs, cases)
        cases += flips
    cases, skipped = runnable_cases(cases, eager_reference(reference))
    artifacts, errors = emit_and_verify(targets, ctx, eager_reference(reference), cases, options, progress)
    extra["export"] = {
        "seconds": round(traced.seconds, 3),
        "static": options.static,
        "notes": traced.notes + ctx.notes + skipped,
    }
    extra["verification"] = {"rtol": options.rtol, "atol": options.atol, "cases": [c.label for c in cases]}
    model_info = {
        "name": loaded.name,
        "path": str(loaded.path) if loaded.path else None,
        "class": type(reference).__name__,
    }
    names = list(traced.program.graph_signature.user_inputs)
    report = build_report(
        model=model_info,
        inputs=input_entries(names, loaded.example_inputs, dims),
        artifacts=artifacts,
        rewrites=traced.rewrites,
        extra=extra,
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
            # TFLite in a child process: a kernel reading out of bounds aborts it, not deploy (isolated.py)
            session = IsolatedSession(result.path) if target == "tflite" else runtimes.load(result.path)
            try:
                result.parity = verify(session, reference, cases, options.rtol, options.atol)
            finally:
                getattr(session, "close", lambda: None)()
        except DeployError as exc:
            result.errors.append(str(exc))
            errors.append(exc)
    return artifacts, errors
