"""The parent's side of the .pt2 phase: start --pt2-worker children, wait within the budget, merge results.

Each child runs in its own session (process group), so ending it also ends the Inductor compile workers
it started; how it ended (status, signal, time budget) becomes one FAILED line naming its last stage.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

from gpu_check_common import DEADLINE, FAILED, LOG, left_s, say
from gpu_check_report import save
from gpu_check_worker import Worker

# The entry point the children run with --pt2-worker; a sibling of this file.
ENTRY = Path(__file__).resolve().with_name("gpu_check.py")
CHILDREN: dict[str, subprocess.Popen] = {}


def spawn(kind: str, name: str, workdir: Path, threads: int | None = None) -> subprocess.Popen:
    """Start a --pt2-worker child in its own session; its output is streamed to ours and to the log.

    ``threads``: Inductor compile threads for the child (unless TORCHINDUCTOR_COMPILE_THREADS is set),
    so that children compiling at once share the cores instead of each starting one worker per core.
    """
    env = {**os.environ, "GPU_CHECK_DEADLINE": str(DEADLINE)}
    if threads:
        env.setdefault("TORCHINDUCTOR_COMPILE_THREADS", str(threads))
    command = [sys.executable, "-X", "faulthandler", str(ENTRY), "--pt2-worker", kind, name, str(workdir)]
    proc = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, start_new_session=True
    )

    def pump() -> None:
        for line in proc.stdout:
            print(line.rstrip("\n"), flush=True)
            LOG.append(line.rstrip("\n"))

    proc.pump = threading.Thread(target=pump, daemon=True)
    proc.pump.start()
    CHILDREN[f"{kind} {name}"] = proc
    return proc


def kill(proc: subprocess.Popen) -> None:
    """End a child we started, with the Inductor compile workers it started (its process group)."""
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()


def finish(kind: str, name: str, workdir: Path, results: dict) -> None:
    """Wait for a worker (within the budget), merge what it recorded, report how it ended in one line."""
    proc = CHILDREN[f"{kind} {name}"]  # stays listed until it has ended: a SIGTERM here must still kill it
    try:
        rc = proc.wait(timeout=max(1.0, left_s() + 15))
    except subprocess.TimeoutExpired:
        kill(proc)
        rc = None
    proc.pump.join(timeout=10)
    del CHILDREN[f"{kind} {name}"]
    state = Worker(name, workdir).state
    merge(results[name], state)
    where = state.get("stage", f".pt2 {kind}")
    if rc is None:
        say(f"FAILED [{name}] {where}: stopped at the time budget (see log)")
    elif rc < 0:
        say(f"FAILED [{name}] {where}: killed by {signal.Signals(-rc).name} (see log)")
    elif rc > 0:
        say(f"FAILED [{name}] {where}: worker exited with status {rc} (see log)")


def merge(entry: dict, state: dict) -> None:
    """Fold a worker's state.json (compile info, parity, timing, failures, tracebacks) into ``entry``."""
    info = state.get("compile")
    if info:
        entry.update(compile_s=info["seconds"], bytes=info["bytes"], notes=info["notes"])
    if state.get("parity"):
        entry["parity"] = {int(b): v for b, v in state["parity"].items()}
    for batch, rows in state.get("timing", {}).items():
        entry["timing"].setdefault(int(batch), {}).update(rows)
    for line in state.get("failed", []):
        if line not in FAILED:
            FAILED.append(line)
    LOG.extend(line for line in state.get("log", []) if line not in LOG)


def stop_all(results: dict, workdir: Path) -> None:
    """End the children still running (only when the check itself is being stopped), one line each."""
    for key, proc in list(CHILDREN.items()):
        kill(proc)
        kind, name = key.split()
        state = Worker(name, workdir).state
        merge(results[name], state)
        say(f"FAILED [{name}] {state.get('stage', f'.pt2 {kind}')}: stopped by the time limit (see log)")


def phase_pt2(names: list[str], results: dict, env: dict, workdir: Path) -> None:
    """Compile the packages in GPU_CHECK_COMPILE_JOBS children at once, then load/verify/time one by one."""
    jobs = max(1, int(os.environ.get("GPU_CHECK_COMPILE_JOBS", "3")))
    for first in range(0, len(names), jobs):
        group = names[first : first + jobs]
        threads = max(2, (os.cpu_count() or 2) // len(group))
        for name in group:
            if left_s() < 60:
                say(f"  skipped {name} .pt2: time budget")
                continue
            spawn("compile", name, workdir, threads)
        for name in group:
            if f"compile {name}" in CHILDREN:
                finish("compile", name, workdir, results)
                save(results, env)
    for name in names:
        if "compile_s" not in results[name]:
            continue
        if left_s() < 20:
            say(f"  skipped {name} .pt2 load/verify/timing: time budget")
            continue
        spawn("run", name, workdir)
        finish("run", name, workdir, results)
        save(results, env)
