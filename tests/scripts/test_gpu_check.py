"""scripts/gpu_check.sh control flow on the CPU (GPU_CHECK_DEVICE=cpu dry run): phases, crash isolation, budget.

The dry run takes the GPU script's real path with the CPU as the device: eager, torch.compile, emit_pt2 into
model.cpu.pt2 in child workers, load, parity and timing. GPU_CHECK_SIMULATE_CRASH makes one model's worker
die by SIGSEGV where aoti_load_package crashed on the lent H200.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
import torch

ROOT = Path(__file__).resolve().parents[2]
TINY = """
import torch

def model():
    torch.manual_seed(0)
    return torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 8))

def example_inputs():
    return (torch.randn(1, 16),)
"""


def run_check(tmp_path: Path, timeout: int = 400, **env: str) -> tuple[subprocess.CompletedProcess, Path]:
    samples = tmp_path / "samples"
    samples.mkdir(exist_ok=True)
    for name in ("tiny", "crashy"):
        (samples / f"{name}.py").write_text(textwrap.dedent(TINY))
    out = tmp_path / "out"
    full_env = {
        **os.environ,
        "PYTHON": sys.executable,
        "OUT": str(out),
        "GPU_CHECK_DEVICE": "cpu",
        "GPU_CHECK_SAMPLES": str(samples),
        "GPU_CHECK_MODELS": "tiny,crashy",
        "GPU_CHECK_PT2_RESERVE_S": "0",
        **env,
    }
    proc = subprocess.run(
        ["bash", "scripts/gpu_check.sh"],
        cwd=ROOT,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )
    return proc, out


def test_native_crash_in_pt2_worker_is_one_line_and_the_rest_is_kept(tmp_path):
    proc, out = run_check(tmp_path, GPU_CHECK_SIMULATE_CRASH="crashy")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "FAILED [crashy] .pt2 load: killed by SIGSEGV (see log)" in proc.stdout
    assert "FAILED [tiny]" not in proc.stdout
    data = json.loads((out / "gpu_check.json").read_text())
    results = data["results"]
    for name in ("tiny", "crashy"):
        for batch in ("1", "32"):
            assert results[name]["timing"][batch]["eager"]["p50_ms"] > 0
            assert results[name]["timing"][batch]["compile"]["p50_ms"] > 0
        assert results[name]["bytes"] > 0  # both packages compiled; only the crashy load died
    tiny, crashy = results["tiny"], results["crashy"]
    assert all(tiny["parity"][b]["ok"] and tiny["parity"][b]["max_rel"] < 1e-4 for b in ("1", "32"))
    assert tiny["timing"]["1"]["pt2"]["p50_ms"] > 0 and tiny["timing"]["32"]["pt2"]["p50_ms"] > 0
    assert "parity" not in crashy and "pt2" not in crashy["timing"]["1"]
    assert data["failed"] == ["FAILED [crashy] .pt2 load: killed by SIGSEGV (see log)"]
    # faulthandler's trace of the crashed worker is in the log; the table names every row.
    assert "Segmentation fault" in (out / "gpu_check.log").read_text()
    table = (out / "gpu_check.md").read_text()
    assert "| tiny | 1 |" in table and "| crashy | 32 |" in table
    # eager comes before torch.compile, which comes before the .pt2 path
    order = [
        proc.stdout.index(s) for s in ("crashy b32 eager", "tiny b1 torch.compile", "compiling model.cpu.pt2")
    ]
    assert order == sorted(order)


def test_stopped_by_the_time_limit_ends_workers_and_keeps_results(tmp_path):
    # TMPDIR: the workers' workdir (in their command lines) and a cold Inductor cache, so they are still
    # working when the limit comes; which stage each one reached depends on the machine's load
    proc, out = run_check(
        tmp_path, GPU_CHECK_TIMEOUT_S="12", GPU_CHECK_STEPS="pt2", TMPDIR=str(tmp_path), timeout=120
    )
    assert proc.returncode == 124
    assert "stopped by the 12 s limit" in proc.stdout
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("FAILED [")]
    assert lines, proc.stdout[-2000:]
    stopped = re.compile(r"FAILED \[(tiny|crashy)\] \S.*: stopped by the time limit \(see log\)")
    assert all(stopped.fullmatch(ln) for ln in lines), lines
    assert json.loads((out / "gpu_check.json").read_text())["failed"] == lines
    listing = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
    assert (
        str(tmp_path) not in listing
    )  # no worker left behind (their workdir is under /tmp, the samples here)


def test_repeated_sigterm_still_ends_workers_and_reports(tmp_path):
    # `timeout` sends SIGTERM to the check and then to its process group: a second signal arriving while
    # the first unwinds must not cut the cleanup short (CI once lost every FAILED line and the table so)
    samples = tmp_path / "samples"
    samples.mkdir()
    (samples / "tiny.py").write_text(textwrap.dedent(TINY))
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "OUT": str(tmp_path / "out"),
        "GPU_CHECK_DEVICE": "cpu",
        "GPU_CHECK_SAMPLES": str(samples),
        "GPU_CHECK_MODELS": "tiny",
        "GPU_CHECK_STEPS": "pt2",
        "GPU_CHECK_PT2_RESERVE_S": "0",
        "TMPDIR": str(tmp_path),
    }
    proc = subprocess.Popen(
        [sys.executable, "scripts/gpu_check.py"], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True
    )
    seen = []
    for line in proc.stdout:
        seen.append(line)
        if "compiling model.cpu.pt2" in line:
            break
    for _ in range(40):  # a burst of signals while the first one unwinds
        if proc.poll() is not None:
            break
        proc.send_signal(signal.SIGTERM)
        time.sleep(0.005)
    rest, _ = proc.communicate(timeout=60)
    output = "".join(seen) + rest
    assert proc.returncode == 124, output[-2000:]
    assert re.search(r"FAILED \[tiny\] \S.*: stopped by the time limit \(see log\)", output), output[-2000:]
    assert "| tiny | 1 |" in output  # the table, printed after the workers were ended


def test_no_budget_skips_every_step_and_still_writes_results(tmp_path):
    proc, out = run_check(tmp_path, GPU_CHECK_BUDGET_S="0", timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert (
        proc.stdout.count("skipped") == 2 * 2 + 2 * 2 + 2
    )  # eager, torch.compile (b1, b32) and .pt2 per model
    data = json.loads((out / "gpu_check.json").read_text())
    assert data["failed"] == [] and data["results"]["tiny"]["timing"]["1"] == {}


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the no-GPU answer")
def test_without_a_gpu_it_exits_2_naming_cuda(tmp_path):
    proc, _ = run_check(tmp_path, GPU_CHECK_DEVICE="cuda", timeout=120)
    assert proc.returncode == 2
    assert "no CUDA GPU visible to PyTorch" in proc.stderr
