"""Targets: which artifact each --target names, and how it is emitted. Backends load lazily."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from deploy.errors import InputError

# target -> artifact file name in the output directory
FILENAMES = {
    "onnx": "model.onnx",
    "tflite": "model.tflite",
    "cuda": "model.cuda.pt2",
    "cpu": "model.cpu.pt2",
}
TARGETS = tuple(FILENAMES)


@dataclass
class EmitContext:
    """What emitters may need: the exported program, the ONNX graph once made, options."""

    out_dir: Path
    exported_program: Any = None  # torch.export.ExportedProgram (None for a .onnx input)
    onnx_model: Any = None  # onnx.ModelProto, produced by the onnx target or given as input
    dump_dir: Path | None = None
    channels_last_io: bool = False
    custom_translation_table: dict | None = None
    onnx_seconds: float = 0.0  # time to translate + simplify, counted once
    onnx_notes: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def parse_targets(value: str | list[str] | tuple[str, ...]) -> list[str]:
    """'onnx,tflite' or ['onnx', 'tflite'] -> validated list, in a dependency-safe order."""
    items = [value] if isinstance(value, str) else list(value)
    names = [part.strip().lower() for item in items for part in str(item).split(",") if part.strip()]
    unknown = [n for n in names if n not in FILENAMES]
    if unknown or not names:
        raise InputError(f"unknown target {', '.join(unknown) or '(none)'}; choose from {', '.join(TARGETS)}")
    return [t for t in TARGETS if t in names]


def check_available(targets: list[str]) -> None:
    """Fail early (exit 2) for a target this machine cannot build, before any export work."""
    for target in targets:
        if target in ("cuda", "cpu"):
            from deploy.runtimes.cuda.emit import check_target_available

            check_target_available(target)


def fail_on_unsupported(targets: list[str], *, exported_program: Any = None, onnx_model: Any = None) -> None:
    """check-ops before emitting: the first unsupported op fails early, the whole table in the detail."""
    from deploy.exporter.checks import precheck

    for report in precheck(targets, exported_program=exported_program, onnx_model=onnx_model):
        if not report.ok:
            raise report.to_error()


def check_before_emitting(targets: list[str], ctx: EmitContext) -> None:
    """check-ops for ``targets`` on what the emitters will use; the first problem fails early.

    For onnx/tflite the program is translated to ONNX first (once, reused by the emitters) and the
    ONNX graph is checked; if torch.onnx cannot translate it, the per-op translation check on the
    exported program names each op and its source line.
    """
    from deploy.errors import UnsupportedOpError

    if not {"onnx", "tflite"} & set(targets):
        return
    try:
        ensure_onnx(ctx)
    except UnsupportedOpError:
        fail_on_unsupported(targets, exported_program=ctx.exported_program)
        raise
    fail_on_unsupported(targets, onnx_model=ctx.onnx_model)


def ensure_onnx(ctx: EmitContext) -> Any:
    """The ONNX graph of the program, translated once (both the onnx and tflite targets use it)."""
    if ctx.onnx_model is None:
        from deploy.runtimes.onnx.emit import build_onnx

        build = build_onnx(
            ctx.exported_program, dump_dir=ctx.dump_dir, custom_translation_table=ctx.custom_translation_table
        )
        ctx.onnx_model, ctx.onnx_seconds, ctx.onnx_notes = build.model, build.seconds, build.notes
    return ctx.onnx_model


def emit(target: str, ctx: EmitContext) -> dict:
    """Write the artifact for ``target``; returns path, bytes, ops, seconds, notes."""
    path = ctx.out_dir / FILENAMES[target]
    if target == "onnx":
        from deploy.runtimes.onnx.emit import save_onnx

        info = save_onnx(ensure_onnx(ctx), path)
        info.update(seconds=ctx.onnx_seconds, notes=list(ctx.onnx_notes))
        return info
    if target == "tflite":
        from deploy.runtimes.tflite.emit import emit_tflite

        return emit_tflite(
            ensure_onnx(ctx), path, channels_last_io=ctx.channels_last_io, dump_dir=ctx.dump_dir
        )
    from deploy.runtimes.cuda.emit import emit_pt2

    if ctx.exported_program is None:
        raise InputError(
            f"--target {target} needs a model.py or nn.Module (an AOTInductor package is built from PyTorch)"
        )
    return emit_pt2(ctx.exported_program, path, device=target)
