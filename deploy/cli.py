"""The `deploy` command line: a thin Typer layer over deploy.api.

Errors are one line on stderr (file:line when known) with exit 2 for bad input and 1 for a
model that cannot be deployed as asked; --debug shows the traceback instead.
"""

from __future__ import annotations

import json
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from deploy.errors import DeployError

app = typer.Typer(
    add_completion=False, no_args_is_help=True, help="Deploy eager PyTorch models to phones, boards and GPUs."
)
out = Console(soft_wrap=True, width=None if sys.stdout.isatty() else 160)
err = Console(stderr=True, soft_wrap=True)

Debug = Annotated[bool, typer.Option("--debug", help="Show the full traceback on errors.")]
AsJson = Annotated[bool, typer.Option("--json", help="Print the result as JSON on stdout.")]


def _run(debug: bool, work: Callable[[], Any]) -> Any:
    """Run ``work``; turn errors into one line and an exit code."""
    try:
        return work()
    except DeployError as exc:
        if debug:
            traceback.print_exc()
        print(f"error: {exc}", file=sys.stderr)
        if exc.detail and not debug:
            print(exc.detail, file=sys.stderr)
        raise typer.Exit(exc.exit_code) from None
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        raise typer.Exit(130) from None
    except Exception as exc:  # an unexpected failure still gets one line unless --debug
        if debug:
            traceback.print_exc()
        else:
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
            print(
                f"error: internal error {type(exc).__name__}: {first} (run with --debug for the traceback)",
                file=sys.stderr,
            )
        raise typer.Exit(1) from None


def _progress(quiet: bool):
    """A progress callback: a rich status line on a terminal, nothing with --json or when piped."""
    if quiet or not sys.stderr.isatty():

        def plain(message: str) -> None:
            if not quiet and message.startswith("rewrite"):
                print(f"  {message}", file=sys.stderr)

        return None, plain
    status = err.status("starting")

    def update(message: str) -> None:
        if message.startswith("rewrite"):
            err.print(f"  {message}", highlight=False)
        status.update(message)

    return status, update


@app.command()
def export(
    model: Annotated[Path, typer.Argument(help="model.py (or a .onnx file)")],
    target: Annotated[
        list[str],
        typer.Option("--target", "-t", help="onnx, tflite, cuda, cpu (comma-separated or repeated)."),
    ] = None,
    out_dir: Annotated[
        Path | None, typer.Option("--out", "-o", help="Output directory [deploy_out/<stem>].")
    ] = None,
    static: Annotated[bool, typer.Option("--static", help="Specialise every dim to the example.")] = False,
    no_rewrite: Annotated[
        bool, typer.Option("--no-rewrite", help="Do not convert Python control flow.")
    ] = False,
    dump_graph: Annotated[
        bool, typer.Option("--dump-graph", help="Write one graph dump per stage to graphs/.")
    ] = False,
    rtol: Annotated[float, typer.Option(help="Relative tolerance (of output magnitude).")] = 1e-4,
    atol: Annotated[float, typer.Option(help="Absolute tolerance.")] = 1e-5,
    channels_last_io: Annotated[bool, typer.Option("--channels-last-io", help="TFLite I/O in NHWC.")] = False,
    model_fn: Annotated[str, typer.Option("--model-fn", help="Name of the model factory.")] = "model",
    inputs_fn: Annotated[
        str, typer.Option("--inputs-fn", help="Name of the example-inputs function.")
    ] = "example_inputs",
    as_json: AsJson = False,
    debug: Debug = False,
) -> None:
    """Export MODEL to static-graph artifacts, verified against eager PyTorch."""
    from deploy import api

    target = target or ["onnx"]
    status, progress = _progress(as_json)

    def work():
        if status is not None:
            status.start()
        try:
            return api.export(
                model,
                targets=target,
                out=out_dir,
                static=static,
                rewrite=not no_rewrite,
                dump_graph=dump_graph,
                rtol=rtol,
                atol=atol,
                channels_last_io=channels_last_io,
                model_fn=model_fn,
                inputs_fn=inputs_fn,
                progress=progress,
            )
        finally:
            if status is not None:
                status.stop()

    result = _run(debug, work)
    if as_json:
        print(json.dumps(result.report, indent=2, default=str))
    else:
        from deploy.cli_render import print_export

        print_export(out, result)
    if not result.ok:
        if result.errors and not as_json:
            first = result.errors[0]
            print(f"error: {first}", file=sys.stderr)
            if first.detail:
                print(first.detail, file=sys.stderr)
        raise typer.Exit(max((e.exit_code for e in result.errors), default=1) or 1)


@app.command()
def bench(
    model: Annotated[Path, typer.Argument(help="An artifact (.onnx, .tflite, .pt2) or a model.py (eager)")],
    device: Annotated[str, typer.Option("--device", "-d", help="local, cuda, adb or adb:SERIAL")] = "local",
    runs: Annotated[int, typer.Option(help="Timed runs.")] = 50,
    warmup: Annotated[int, typer.Option(help="Untimed warm-up runs.")] = 5,
    threads: Annotated[int | None, typer.Option(help="CPU threads (default: the runtime's choice).")] = None,
    compare: Annotated[
        bool, typer.Option("--compare", help="model.py: eager vs each exported artifact.")
    ] = False,
    cuda_graph: Annotated[
        bool, typer.Option("--cuda-graph", help="cuda: capture once, time CUDA-graph replays.")
    ] = False,
    runner: Annotated[
        str, typer.Option("--runner", help="adb: auto, benchmark_model or python (the device-side runner).")
    ] = "auto",
    timeout: Annotated[
        float | None, typer.Option("--timeout", help="adb: seconds the benchmark run may take on the device.")
    ] = None,
    runner_binary: Annotated[
        Path | None, typer.Option("--runner-binary", help="adb: a benchmark_model to push.")
    ] = None,
    as_json: AsJson = False,
    debug: Debug = False,
) -> None:
    """Measure latency of MODEL on a device."""
    from deploy import api
    from deploy.cli_render import print_bench, print_compare

    options: dict[str, Any] = {"runner_binary": runner_binary} if runner_binary else {}
    if runner != "auto":
        options["runner"] = runner
    if cuda_graph:
        options["cuda_graph"] = True
    if timeout is not None:
        options["timeout"] = timeout
    if compare:
        results = _run(
            debug, lambda: api.bench_compare(model, device=device, runs=runs, warmup=warmup, threads=threads)
        )
        if as_json:
            print(json.dumps(results, indent=2, default=str))
        else:
            print_compare(out, results)
        return
    result = _run(
        debug, lambda: api.bench(model, device=device, runs=runs, warmup=warmup, threads=threads, **options)
    )
    if as_json:
        print(json.dumps(result.to_dict(), indent=2, default=str))
    else:
        print_bench(out, result)


@app.command()
def devices(as_json: AsJson = False, debug: Debug = False) -> None:
    """List this host, CUDA GPUs and adb devices."""
    from deploy import api
    from deploy.cli_render import print_devices

    found = _run(debug, api.devices)
    if as_json:
        print(json.dumps(found, indent=2, default=str))
    else:
        print_devices(out, found)


@app.command("check-ops")
def check_ops(
    model: Annotated[Path, typer.Argument(help="model.py, .onnx or .tflite")],
    target: Annotated[
        str, typer.Option("--target", "-t", help="onnx, tflite, xnnpack, gpu, nnapi, coreml")
    ] = "onnx",
    as_json: AsJson = False,
    debug: Debug = False,
) -> None:
    """Which ops TARGET cannot run, why, and where in your source."""
    from deploy import api
    from deploy.cli_render import print_ops

    report = _run(debug, lambda: api.check_ops(model, target=target))
    if as_json:
        print(json.dumps(report.to_dict(), indent=2, default=str))
    else:
        print_ops(out, report)
    if not report.ok:
        raise typer.Exit(1)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
