"""Print the `make demo` summary: the artifact, its size, parity vs eager, and eager vs ONNX latency.

Usage: python scripts/demo_summary.py deploy_out/mobilenet_v2 [--runs N]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from deploy import api
from deploy.cli_render import human_bytes


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--threads", type=int, default=1, help="CPU threads for every runtime (same for all)")
    args = parser.parse_args()
    report = json.loads((args.out_dir / "report.json").read_text())
    model_path = report["model"]["path"]
    print(f"\nmodel      {report['model']['name']} ({model_path})")
    for rewrite in report.get("rewrites", []):
        print(
            f"rewrite    {rewrite['kind']} at {Path(rewrite['file']).name}:{rewrite['line']}  {rewrite.get('what', '')}"
        )
    for art in report["artifacts"].values():
        parity = art["parity"] or {}
        state = "ok" if art["ok"] else "FAILED"
        print(
            f"artifact   {art['path']}  {human_bytes(art['bytes'])}  parity {state}: "
            f"{parity.get('cases', 0)} input sets, max rel err {parity.get('max_rel', float('nan')):.2e}"
        )
    targets = [t for t, a in report["artifacts"].items() if a["ok"] and t in ("onnx", "tflite")]
    table = api.bench_compare(
        model_path,
        runs=args.runs,
        warmup=5,
        out=args.out_dir,
        targets=targets,
        reuse=True,
        threads=args.threads,
    )
    eager = table["results"][0]["p50_ms"]
    for row in table["results"]:
        name = {
            "eager": "eager PyTorch (dynamic graph)",
            "onnx": "ONNX in onnxruntime (static)",
            "tflite": "TFLite in ai-edge-litert (static)",
        }.get(row["label"], row["label"])
        print(
            f"latency    {name:36s} p50 {row['p50_ms']:8.2f} ms  p90 {row['p90_ms']:8.2f} ms  "
            f"first {row['first_ms']:8.2f} ms  ({eager / row['p50_ms']:.2f}x vs eager)"
        )
    print(
        f"(this CPU, {args.threads} thread(s) each, runs alternating, {args.runs} runs each; "
        f"report: {args.out_dir / 'report.json'})"
    )


if __name__ == "__main__":
    main()
