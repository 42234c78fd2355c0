"""Conversion score of the control-flow model sets: how many eager models with Python control flow
on tensors export with ``deploy export`` and match eager PyTorch.

Each folder under ``bench/controlflow_sets/`` is a set of model.py files that a checker wrote
without reading the rewriters, first run as a held-out set (first-run scores in its README.md).
Every model runs in its own ``deploy export MODEL -t onnx,tflite`` process (as a user would run it,
with the 600 s limit a user would give up at); a target counts when it is written and verified
(parity on every verify input, the min/mid/max sizes and the generated branch flips).

    .venv/bin/python bench/controlflow_sets.py                 # every set
    .venv/bin/python bench/controlflow_sets.py set6 --json out.json
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SETS = Path(__file__).resolve().parent / "controlflow_sets"
TARGETS = ("onnx", "tflite")


def _export(path: Path, targets: tuple[str, ...], out_dir: Path, timeout: int) -> tuple[int, str, dict]:
    cli = "from deploy.cli import main; main()"
    command = [sys.executable, "-c", cli, "export", str(path), "-t", ",".join(targets), "-o", str(out_dir)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, cwd=ROOT)
        code, output = done.returncode, done.stdout + done.stderr
    except subprocess.TimeoutExpired:
        code, output = 124, f"timed out after {timeout} s"
    report = out_dir / "report.json"
    artifacts = json.loads(report.read_text()).get("artifacts", {}) if report.exists() else {}
    verified = {t: bool(((artifacts.get(t) or {}).get("parity") or {}).get("ok")) for t in targets}
    return code, output, verified


def run_model(path: Path, out_dir: Path, timeout: int) -> dict:
    """One export to both targets; per target whether it was written and verified, and the first
    error line. When that fails, ONNX alone is tried too (a TFLite op check refuses the whole run
    before anything is written), except after a timeout: the ONNX export alone takes as long."""
    start = time.perf_counter()
    code, output, verified = _export(path, TARGETS, out_dir, timeout)
    if code not in (0, 124) and not verified["onnx"]:
        verified["onnx"] = _export(path, ("onnx",), out_dir.with_name(out_dir.name + "_onnx"), timeout)[2][
            "onnx"
        ]
    error = next((line for line in output.splitlines() if line.startswith("error")), "")
    error = output if code == 124 else error
    return {
        "model": path.stem,
        "exit": code,
        **verified,
        "seconds": round(time.perf_counter() - start, 1),
        "error": error[:200],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="*", help="set folders under bench/controlflow_sets (default: all)")
    parser.add_argument("--timeout", type=int, default=600)
    parser.add_argument("--json", type=Path, help="write the per-model results here")
    args = parser.parse_args()
    names = args.sets or sorted(p.name for p in SETS.iterdir() if p.is_dir())
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            rows = []
            for path in sorted((SETS / name).glob("*.py")):
                row = run_model(path, Path(tmp) / name / path.stem, args.timeout)
                rows.append(row)
                mark = " ".join(f"{t}={'ok' if row[t] else 'NO'}" for t in TARGETS)
                print(f"{name}/{row['model']}: {mark} ({row['seconds']} s) {row['error']}", flush=True)
            results[name] = rows
            both = sum(all(r[t] for t in TARGETS) for r in rows)
            onnx = sum(r["onnx"] for r in rows)
            print(f"== {name}: onnx {onnx}/{len(rows)}, onnx and tflite {both}/{len(rows)}", flush=True)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
