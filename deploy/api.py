"""The public Python API (for CI and notebooks): export, check_ops, bench, devices.

import deploy
res = deploy.export("samples/mobilenet_v2.py", targets=["onnx", "tflite"])
assert res.artifacts["tflite"].parity.ok
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from deploy.errors import InputError
from deploy.exporter.pipeline import ExportOptions, ExportResult, Progress
from deploy.exporter.targets import FILENAMES

ModelLike = Any  # torch.nn.Module | str | os.PathLike


def _is_path(value: Any) -> bool:
    return isinstance(value, (str, os.PathLike))


def load(
    model_or_path: ModelLike,
    example_inputs: Sequence | None = None,
    *,
    model_fn: str = "model",
    inputs_fn: str = "example_inputs",
    dynamic_shapes: Any = None,
    verify_inputs: Sequence | None = None,
):
    """A LoadedModel from a model.py path or an nn.Module plus example inputs."""
    import torch

    from deploy.exporter.loader import LoadedModel, check_inputs, load_model_file

    if _is_path(model_or_path):
        loaded = load_model_file(model_or_path, model_fn=model_fn, inputs_fn=inputs_fn)
        if example_inputs is not None:
            loaded.example_inputs = check_inputs(example_inputs, str(model_or_path), "example_inputs")
        if dynamic_shapes is not None:
            loaded.dynamic_shapes = dynamic_shapes
        return loaded
    if not isinstance(model_or_path, torch.nn.Module):
        raise InputError(f"expected an nn.Module or a path, got {type(model_or_path).__name__}")
    if example_inputs is None:
        raise InputError("an nn.Module needs example_inputs")
    inputs = check_inputs(example_inputs, None, "example_inputs")
    extra = [check_inputs(x, None, "verify_inputs") for x in (verify_inputs or [])]
    return LoadedModel(
        model_or_path, inputs, dynamic_shapes, extra, name=type(model_or_path).__name__.lower()
    )


def export(
    model_or_path: ModelLike,
    example_inputs: Sequence | None = None,
    *,
    targets: Sequence[str] | str = ("onnx",),
    out: str | os.PathLike | None = None,
    dynamic_shapes: Any = None,
    verify_inputs: Sequence | None = None,
    static: bool = False,
    rewrite: bool = True,
    dump_graph: bool = False,
    rtol: float | None = None,
    atol: float | None = None,
    channels_last_io: bool = False,
    model_fn: str = "model",
    inputs_fn: str = "example_inputs",
    progress: Progress | None = None,
) -> ExportResult:
    """Export a model.py, an nn.Module (+ example inputs) or a .onnx file to verified artifacts.

    Returns an ExportResult whose ``artifacts[target]`` has ``path``, ``bytes`` and ``parity``;
    ``report`` is the report.json object. Bad input raises InputError; a target that cannot be
    built is recorded in the result (``result.ok`` is False, ``result.errors`` holds why).
    """
    from deploy.exporter.verify import ATOL, RTOL

    options = ExportOptions(
        targets=[targets] if isinstance(targets, str) else list(targets),
        out=Path(out) if out is not None else None,
        static=static,
        rewrite=rewrite,
        dump_graph=dump_graph,
        rtol=RTOL if rtol is None else rtol,
        atol=ATOL if atol is None else atol,
        channels_last_io=channels_last_io,
    )
    progress = progress or (lambda _: None)
    if _is_path(model_or_path) and str(model_or_path).lower().endswith(".onnx"):
        from deploy.exporter.onnx_input import export_onnx_file

        path = Path(model_or_path)
        if not path.is_file():
            raise InputError("no such file", file=str(path))
        return export_onnx_file(path, options, progress)
    from deploy.exporter.pipeline import export_model

    loaded = load(
        model_or_path,
        example_inputs,
        model_fn=model_fn,
        inputs_fn=inputs_fn,
        dynamic_shapes=dynamic_shapes,
        verify_inputs=verify_inputs,
    )
    return export_model(loaded, options, progress)


def bench(
    model_or_path: ModelLike,
    *,
    device: str = "local",
    runs: int = 50,
    warmup: int = 5,
    threads: int | None = None,
    example_inputs: Sequence | None = None,
    model_fn: str = "model",
    inputs_fn: str = "example_inputs",
    **device_options: Any,
):
    """Measure latency of an artifact (.onnx/.tflite/.pt2) or of a model.py / nn.Module run eagerly."""
    from deploy.devices import get_device

    if runs < 1 or warmup < 0:
        raise InputError("--runs must be >= 1 and --warmup >= 0")
    target = get_device(device)
    timeout = device_options.pop("timeout", None)
    if timeout is not None:
        if not hasattr(target, "timeout_s"):
            raise InputError(f"--timeout applies to adb devices, not {device!r}")
        target.timeout_s = float(timeout)
    if _is_path(model_or_path) and Path(model_or_path).suffix.lower() in (".onnx", ".tflite", ".pt2"):
        path = Path(model_or_path)
        if not path.is_file():
            raise InputError("no such file", file=str(path))
        _check_options(target.bench, device, device_options)
        return target.bench(path, runs=runs, warmup=warmup, threads=threads, **device_options)
    loaded = load(model_or_path, example_inputs, model_fn=model_fn, inputs_fn=inputs_fn)
    if not hasattr(target, "bench_session"):
        raise InputError(f"device {device!r} runs artifacts only; export the model first (deploy export)")
    _check_options(target.bench_session, device, device_options)
    # A device that runs the model somewhere else than this process's CPU (a GPU) builds its own baseline.
    factory = getattr(target, "eager_factory", eager_factory)(loaded, threads)
    return target.bench_session(
        factory,
        label=f"{loaded.name} (eager)",
        runs=runs,
        warmup=warmup,
        threads=threads,
        inputs=[t.numpy() for t in loaded.example_inputs],
        **device_options,
    )


# Which devices each device-specific bench option belongs to, for the error when it is given elsewhere.
_OPTION_DEVICES = {"cuda_graph": "cuda", "runner": "adb", "runner_binary": "adb"}


def _check_options(method: Any, device: str, options: dict[str, Any]) -> None:
    """A bench option the device does not take is bad input (exit 2), not a TypeError from deep inside."""
    import inspect

    accepted = inspect.signature(method).parameters
    for name in options:
        if name not in accepted:
            flag = "--" + name.replace("_", "-")
            raise InputError(
                f"{flag} applies to {_OPTION_DEVICES.get(name, 'other')} devices, not {device!r}"
            )


def bench_compare(
    model_path: str | os.PathLike,
    *,
    device: str = "local",
    runs: int = 50,
    warmup: int = 5,
    threads: int | None = None,
    out: str | os.PathLike | None = None,
    targets: Sequence[str] = ("onnx", "tflite"),
    reuse: bool = False,
) -> dict:
    """Eager PyTorch vs each exported artifact of a model.py on one device, runs alternating.

    Exports ``targets`` first (a target that cannot be built is skipped with a note) unless
    ``reuse`` and the artifacts are already in the output directory. Returns the table rows,
    the chart path (None without matplotlib) and notes.
    """
    from deploy.devices.compare import compare, write_chart
    from deploy.runtimes import load as load_artifact

    if device != "local":
        raise InputError("--compare runs on --device local (eager PyTorch runs in this process)")
    loaded = load(model_path)
    out_dir = Path(out) if out else Path("deploy_out") / loaded.name
    notes: list[str] = []
    artifacts = {t: out_dir / FILENAMES[t] for t in targets if reuse and (out_dir / FILENAMES[t]).is_file()}
    if not artifacts:
        result = export(model_path, targets=list(targets), out=out_dir)
        artifacts = {t: a.path for t, a in result.artifacts.items() if a.path is not None and a.ok}
        notes += [
            f"{t}: skipped ({'; '.join(a.errors) or 'parity failed'})"
            for t, a in result.artifacts.items()
            if not a.ok
        ]
    entries = {"eager": eager_factory(loaded, threads)}
    for target, path in artifacts.items():
        entries[target] = lambda path=path: load_artifact(path, threads=threads)
    inputs = [t.numpy() for t in loaded.example_inputs]
    results = compare(
        entries, runs=runs, warmup=warmup, threads=threads, inputs_for={k: inputs for k in entries}
    )
    chart = write_chart(results, out_dir / "compare.png")
    if chart is None:
        notes.append("chart not drawn: install matplotlib (pip install 'deploy[chart]')")
    rows = [dict(r.to_dict(), label=label) for label, r in zip(entries, results)]
    return {
        "device": device,
        "model": str(model_path),
        "results": rows,
        "chart": str(chart) if chart else None,
        "notes": notes,
    }


def eager_factory(loaded, threads: int | None = None):
    """A Session factory that runs the loaded model eagerly (the dynamic-graph baseline)."""
    from deploy.runtimes.eager import EagerSession

    return lambda: EagerSession(loaded.module, loaded.example_inputs, threads=threads)


def devices() -> list[dict]:
    """Every device reachable now: this host, CUDA GPUs, adb devices."""
    from deploy.devices import list_devices

    return list_devices()


def check_ops(model_or_path: ModelLike, target: str = "onnx", **options: Any):
    """What ``target`` cannot run, why, and where in the user's source (issue #5)."""
    from deploy.exporter.checks import check_ops as run_check

    return run_check(model_or_path, target=target, **options)


__all__ = ["export", "bench", "bench_compare", "devices", "check_ops", "ExportResult", "load"]
