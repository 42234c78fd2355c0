"""An adb device (Android phone or Linux board): push, run, pull, info, and bench built from them.

bench: make a work dir under /data/local/tmp, probe for a runner, push the model (and the runner),
run it with a timeout, require the end marker, parse, and remove the work dir. Every argument that
reaches the device shell is quoted. Any failure is a DeviceError; a partial run gives no result.
"""

from __future__ import annotations

import os
import secrets
import shlex
from collections.abc import Sequence
from pathlib import Path

from deploy.devices.adb import runners
from deploy.devices.adb.client import DEFAULT_TIMEOUT_S, AdbClient, DeviceLost, ShellResult
from deploy.devices.adb.info import INFO_SCRIPT, STATE_SCRIPT, parse_info, parse_lines, parse_state
from deploy.devices.adb.result import SummaryBenchResult
from deploy.devices.result import BenchResult, DeviceInfo
from deploy.errors import DeviceError, InputError

WORK_ROOT = "/data/local/tmp"
BENCH_TIMEOUT_S = float(os.environ.get("DEPLOY_ADB_TIMEOUT", "600"))


class AdbDevice:
    """One device, addressed by serial. ``timeout_s`` bounds the benchmark run; other calls use ``call_timeout_s``."""

    kind = "adb"

    def __init__(
        self,
        serial: str,
        *,
        client: AdbClient | None = None,
        timeout_s: float = BENCH_TIMEOUT_S,
        call_timeout_s: float = DEFAULT_TIMEOUT_S,
        runner: str = "auto",
        runner_binary: Path | None = None,
    ):
        self.serial = serial
        self.client = client or AdbClient()
        self.timeout_s = timeout_s
        self.call_timeout_s = call_timeout_s
        self.runner = runner
        self.runner_binary = runner_binary

    # -- the protocol: push, run, pull, info ------------------------------------------------
    def push(self, local: Path, remote: str) -> None:
        local = Path(local)
        size_mb = local.stat().st_size / 1e6
        self.client.push(self.serial, local, remote, timeout=self.call_timeout_s + size_mb)  # >= 1 MB/s

    def pull(self, remote: str, local: Path) -> None:
        self.client.pull(self.serial, remote, Path(local), timeout=self.call_timeout_s)

    def run(
        self, command: str | Sequence[str], *, timeout: float | None = None, what: str = "command"
    ) -> ShellResult:
        """Run in the device shell (a list is quoted argument by argument) and require it to finish.

        The shell prints an end marker with the exit code after the command; if the device dies
        mid-command adb can exit 0 with truncated output, so a missing marker means "device lost".
        """
        line = command if isinstance(command, str) else shlex.join(command)
        marker = f"__deploy_end_{secrets.token_hex(4)}__"
        wrapped = f"( {line}\n); echo {marker}$?"  # a subshell, so that an `exit` still reaches the marker
        done = self.client.shell(self.serial, wrapped, timeout=timeout or self.call_timeout_s)
        head, found, tail = done.stdout.rpartition(marker)
        if not found:
            self._raise_lost(done, what)
        code = tail.strip()
        return ShellResult(int(code) if code.isdigit() else done.exit_code, head, done.stderr)

    def _raise_lost(self, done: ShellResult, what: str) -> None:
        said = " ".join((done.stderr or "").split())[:200]
        for state in ("unauthorized", "offline", "not found"):
            if state in said:
                raise DeviceError(f"adb device {self.serial} is {state}: {said}")
        detail = f" (adb said: {said})" if said else ""
        raise DeviceLost(
            f"adb device {self.serial} was lost during the {what}: no end marker, no result{detail}"
        )

    def info(self) -> DeviceInfo:
        done = self.run(INFO_SCRIPT, what="device info query")
        return parse_info(done.stdout, self.serial)

    # -- bench ----------------------------------------------------------------------------------
    def bench(
        self,
        artifact: Path,
        *,
        runs: int = 50,
        warmup: int = 5,
        threads: int | None = None,
        inputs: Sequence | None = None,
        runner: str | None = None,
        runner_binary: Path | None = None,
    ) -> BenchResult:
        """Measure ``artifact`` (.tflite or .onnx) on the device; the runner used is in ``result.runner``."""
        artifact = Path(artifact)
        kind = artifact.suffix.lower().lstrip(".")
        if kind not in ("tflite", "onnx"):
            raise InputError(
                f"adb devices run .tflite or .onnx artifacts, not {artifact.suffix or 'this file'}"
            )
        if not artifact.is_file():
            raise InputError("no such file", file=str(artifact))
        if inputs is not None:
            raise InputError("adb bench feeds random inputs on the device; custom inputs are not supported")
        if runs < 1 or warmup < 0 or (threads is not None and threads < 1):
            raise InputError(f"bad counts: runs={runs}, warmup={warmup}, threads={threads}")
        device = self.info()
        workdir = f"{WORK_ROOT}/deploy-{secrets.token_hex(4)}"
        self._check(self.run(["mkdir", "-p", workdir]), f"cannot create {workdir}")
        lost = False
        try:
            return self._bench_in(
                workdir, artifact, kind, device, runs, warmup, threads, runner, runner_binary
            )
        except DeviceLost:
            lost = True
            raise
        finally:
            if not lost:  # a hung or vanished device would only make the cleanup wait too
                try:
                    self.run(["rm", "-rf", workdir], what="cleanup")
                except DeviceError:
                    pass

    def _bench_in(self, workdir, artifact, kind, device, runs, warmup, threads, runner, runner_binary):
        probe = parse_lines(self.run(runners.probe_script(workdir, kind), what="runner probe").stdout)
        choice = runners.choose_runner(
            probe, kind, wanted=runner or self.runner, runner_binary=runner_binary or self.runner_binary
        )
        model = f"{workdir}/{artifact.name}"
        self.push(artifact, model)
        if choice.name == "python":
            script = f"{workdir}/{runners.RUNNER_SCRIPT.name}"
            self.push(runners.RUNNER_SCRIPT, script)
            command = runners.python_command(script, model, runs=runs, warmup=warmup, threads=threads)
        else:
            binary = choice.binary
            if choice.push_binary is not None:
                if not choice.push_binary.is_file():
                    raise InputError("no such runner binary", file=str(choice.push_binary))
                binary = f"{workdir}/benchmark_model"
                self.push(choice.push_binary, binary)
                self._check(self.run(["chmod", "755", binary]), "cannot make benchmark_model executable")
            command = runners.benchmark_model_command(
                binary, model, runs=runs, warmup=warmup, threads=threads, max_secs=self.timeout_s
            )
        done = self.run(
            f"cd {shlex.quote(workdir)} && {command}", timeout=self.timeout_s, what="benchmark run"
        )
        self._check(done, f"the {choice.name} runner failed")
        self._note_state_after(device)
        if choice.name == "python":
            return self._python_result(done, device, artifact, runs, warmup, threads)
        return self._benchmark_model_result(done, device, artifact, runs, warmup, threads)

    def _note_state_after(self, device: DeviceInfo) -> None:
        """Governor and temperature after the run, beside the readings from before (throttling shows here)."""
        after = parse_state(self.run(STATE_SCRIPT, what="CPU state query").stdout)
        for key, value in after.items():
            device.extra[f"{key}_after"] = value

    def _check(self, done: ShellResult, what: str) -> None:
        if done.exit_code != 0:
            said = (done.stderr.strip() or done.stdout.strip()).splitlines()
            raise DeviceError(
                f"{what} on {self.serial} (exit {done.exit_code}): {said[-1] if said else 'no output'}"
            )

    def _python_result(self, done, device, artifact, runs, warmup, threads) -> BenchResult:
        data = runners.parse_python_output(done.stdout)
        if len(data["samples_ms"]) != runs:
            raise DeviceError(
                f"the python runner returned {len(data['samples_ms'])} samples, expected {runs}"
            )
        notes = [f"python {data.get('python')} on the device"]
        return BenchResult(
            device=device,
            runtime=data["runtime"],
            artifact=str(artifact),
            threads=threads,
            init_ms=data["init_ms"],
            first_ms=data["first_ms"],
            runs=runs,
            warmup=warmup,
            samples_ms=[float(s) for s in data["samples_ms"]],
            peak_rss_mb=round(data["peak_rss_mb"], 2),
            runner="python",
            notes=notes,
        )

    def _benchmark_model_result(self, done, device, artifact, runs, warmup, threads) -> BenchResult:
        data = runners.parse_benchmark_model(done.stdout + "\n" + done.stderr)
        if data.get("count") is not None and data["count"] != runs:
            raise DeviceError(f"benchmark_model ran {data['count']} times, expected {runs}")
        summary = {k[: -len("_ms")]: v for k, v in data.items() if k.endswith("_ms") and k[:-3] in _SUMMARY}
        summary.setdefault("avg", data["avg_ms"])
        notes = ["benchmark_model prints summary statistics only: p50 is its median, p90/p99 unavailable"]
        if "memory_delta_mb" in data and "peak_memory_mb" not in data:
            notes.append("peak_rss_mb is benchmark_model's memory footprint delta, not the process peak")
        return SummaryBenchResult(
            device=device,
            runtime="tflite (benchmark_model)",
            artifact=str(artifact),
            threads=threads,
            init_ms=data["init_ms"],
            first_ms=data["first_ms"],
            runs=runs,
            warmup=max(warmup, 1),
            samples_ms=[],
            peak_rss_mb=data.get("peak_memory_mb", data.get("memory_delta_mb")),
            runner="benchmark_model",
            notes=notes,
            summary_ms=summary,
        )


_SUMMARY = ("min", "max", "avg", "std", "p5", "median", "p95")
