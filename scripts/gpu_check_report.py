"""The GPU check's results as a markdown table, and $OUT/gpu_check.md/.json/.log written after every row."""

from __future__ import annotations

import json
import time

from gpu_check_common import BATCHES, FAILED, LOG, OUT, SEQ, START

from deploy.atomic import write_text


def fmt(row: dict | None, key: str = "p50_ms") -> str:
    """One timing cell: the row's ``key`` in ms, or n/a."""
    return "n/a" if not row else f"{row[key]:.3f}"


def speedup(base: dict | None, row: dict | None) -> str:
    """``base`` p50 over ``row`` p50 as ``1.23x``, or n/a."""
    return "n/a" if not base or not row else f"{base['p50_ms'] / row['p50_ms']:.2f}x"


def markdown(results: dict, env: dict) -> str:
    """The timing table, the compile/parity table, the total time and the failures."""
    lines = [
        f"# GPU check: {env['gpu']}, torch {env['torch']}, CUDA {env['cuda']}",
        "",
        "p50 latency in ms (CUDA events, inputs on the GPU, float32 with TF32 off; tiny_transformer at seq "
        f"{SEQ}). The .pt2 has a dynamic batch; torch.compile is default mode, static shapes.",
        "",
        "| model | batch | eager | torch.compile | .pt2 | .pt2 + CUDA graph | .pt2 vs eager | graph vs eager |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, entry in results.items():
        for batch, t in entry["timing"].items():
            eager, pt, graph = t.get("eager"), t.get("pt2"), t.get("pt2_graph")
            lines.append(
                f"| {name} | {batch} | {fmt(eager)} | {fmt(t.get('compile'))} | {fmt(pt)} | {fmt(graph)} "
                f"| {speedup(eager, pt)} | {speedup(eager, graph)} |"
            )
    lines += [
        "",
        "| model | AOTI compile s | MiB | batch | max_abs | max_rel | ok | torch.compile first call ms |",
    ]
    lines.append("|---|---|---|---|---|---|---|---|")
    for name, entry in results.items():
        for batch in BATCHES:
            parity = (entry.get("parity") or {}).get(batch)
            cells = (
                [f"{parity['max_abs']:.2e}", f"{parity['max_rel']:.2e}", str(parity["ok"])]
                if parity
                else ["n/a"] * 3
            )
            size = f"{entry['bytes'] / 2**20:.1f}" if "bytes" in entry else "n/a"
            first = fmt(entry["timing"].get(batch, {}).get("compile"), "first_ms")
            lines.append(
                f"| {name} | {entry.get('compile_s', 'n/a')} | {size} | {batch} | {' | '.join(cells)} | {first} |"
            )
    lines += ["", f"total {time.perf_counter() - START:.0f} s; {env['cuda_home']}"]
    lines += ["", "Failures:" if FAILED else "No failures."] + [f"- {line}" for line in FAILED]
    return "\n".join(lines) + "\n"


def save(results: dict, env: dict) -> str:
    """Write gpu_check.md/.json/.log to $OUT (atomically, after every row); returns the markdown."""
    text = markdown(results, env)
    if OUT is not None:
        OUT.mkdir(parents=True, exist_ok=True)
        write_text(OUT / "gpu_check.md", text)
        payload = {"env": env, "results": results, "failed": FAILED}
        write_text(OUT / "gpu_check.json", json.dumps(payload, indent=1, default=str))
        write_text(OUT / "gpu_check.log", "\n".join(LOG) + "\n")
    return text
