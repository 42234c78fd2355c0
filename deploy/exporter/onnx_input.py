"""Export from a .onnx file (no torch.export): lower it to other targets, verified against onnxruntime."""

from __future__ import annotations

from pathlib import Path

import onnx
import torch

from deploy.errors import InputError
from deploy.exporter.pipeline import ExportOptions, ExportResult, Progress, dump_enabled, emit_and_verify
from deploy.exporter.report import build_report, write_report
from deploy.exporter.targets import EmitContext, fail_on_unsupported, parse_targets
from deploy.exporter.verify import Case
from deploy.runtimes.base import random_inputs
from deploy.runtimes.onnx.session import OnnxSession

DYNAMIC_SIZES = (1, 4, 16)  # sizes a dynamic dim of an ONNX input is verified at


def export_onnx_file(path: Path, options: ExportOptions, progress: Progress = lambda _: None) -> ExportResult:
    targets = parse_targets(options.targets)
    if any(t in ("cuda", "cpu") for t in targets):
        raise InputError(
            "--target cuda/cpu needs a model.py: AOTInductor compiles PyTorch programs, not ONNX",
            file=str(path),
        )
    try:
        model = onnx.load(str(path))
    except Exception as exc:  # protobuf DecodeError and friends
        raise InputError(f"not a readable ONNX model: {type(exc).__name__}", file=str(path)) from exc
    fail_on_unsupported(targets, onnx_model=model)
    source = OnnxSession(path)
    out_dir = Path(options.out) if options.out else Path("deploy_out") / path.stem
    ctx = EmitContext(
        out_dir=out_dir,
        onnx_model=model,
        dump_dir=out_dir / "graphs" if dump_enabled(options) else None,
        channels_last_io=options.channels_last_io,
    )

    def reference(inputs: tuple) -> list:
        return source.run([t.numpy() for t in inputs])

    has_dynamic = any(d is None for spec in source.input_specs for d in spec.shape)
    sizes = DYNAMIC_SIZES if has_dynamic else (1,)
    cases = [
        Case(
            f"random (dynamic dims={size})" if has_dynamic else f"random[{seed}]",
            tuple(torch.from_numpy(a) for a in random_inputs(source.input_specs, size, seed)),
        )
        for seed, size in enumerate(sizes * (1 if has_dynamic else 2))
    ]
    progress(f"lower {path.name} to {', '.join(targets)}")
    artifacts, errors = emit_and_verify(targets, ctx, reference, cases, options, progress)
    inputs = [
        {"name": s.name, "shape": [d if d is not None else -1 for d in s.shape], "dtype": s.dtype}
        for s in source.input_specs
    ]
    report = build_report(
        model={"name": path.stem, "path": str(path), "class": "onnx"},
        inputs=inputs,
        artifacts=artifacts,
        extra={
            "verification": {
                "rtol": options.rtol,
                "atol": options.atol,
                "reference": "onnxruntime",
                "cases": [c.label for c in cases],
            }
        },
    )
    write_report(report, out_dir)
    return ExportResult(artifacts, report, out_dir, errors)
