"""How the CLI shows results on a terminal: rich tables for export, bench, devices and check-ops."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table


def human_bytes(n: int) -> str:
    """Decimal units (1 MB = 10^6 bytes), as file managers and the demo summary show them."""
    for unit in ("B", "KB", "MB"):
        if n < 1000:
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1000
    return f"{n:.1f} GB"


def print_export(console: Console, result: Any) -> None:
    report = result.report
    for note in report.get("export", {}).get("notes", []):
        console.print(f"note: {note}", highlight=False)
    table = Table(title=f"deploy export {report['model']['name']} -> {result.out_dir}")
    for column in ("target", "artifact", "size", "parity cases", "max rel err", "ok"):
        table.add_column(column)
    for target, artifact in result.artifacts.items():
        parity = artifact.parity
        table.add_row(
            target,
            str(artifact.path or "-"),
            human_bytes(artifact.bytes) if artifact.bytes else "-",
            str(parity.cases) if parity else "-",
            f"{parity.max_rel:.2e}" if parity else "-",
            "yes" if artifact.ok else "[red]NO[/]",
        )
    console.print(table)
    for target, artifact in result.artifacts.items():
        if artifact.parity and not artifact.parity.ok and artifact.parity.worst:
            w = artifact.parity.worst
            console.print(
                f"[red]{target}: mismatch[/] on {w['case']} (input shapes {w['input_shapes']}): output {w['output']} "
                f"max abs {w['max_abs']:.3e}, max rel {w['max_rel']:.3e} {w.get('problem') or ''}",
                highlight=False,
            )
        for note in artifact.notes:
            console.print(f"{target}: {note}", highlight=False)
        for line in artifact.parity.conditioned if artifact.parity else ():
            console.print(f"{target}: ill-conditioned input, {line}", highlight=False)
    branches = report.get("branches")
    if branches:
        covered = ", ".join(
            f"{site} {'/'.join(b['covered'])}"
            + (f" (not {'/'.join(b['not_covered'])})" if b["not_covered"] else "")
            for site, b in branches.items()
        )
        console.print(f"branches covered: {covered}", highlight=False)
    console.print(f"report: {result.out_dir / 'report.json'}", highlight=False)


def print_bench(console: Console, result: Any) -> None:
    d = result.to_dict()
    device = d["device"]
    where = " ".join(str(x) for x in (device.get("kind"), device.get("serial"), device.get("model")) if x)
    console.print(
        f"{d['artifact']} on {where} with {d['runtime']}" + (f" ({d['runner']})" if d.get("runner") else ""),
        highlight=False,
    )
    fields = [
        ("init", "init_ms"),
        ("first", "first_ms"),
        ("p50", "p50_ms"),
        ("p90", "p90_ms"),
        ("p99", "p99_ms"),
    ]
    parts = [f"{name} {_ms(d.get(key))}" for name, key in fields]
    parts.append(f"mean {_ms(d.get('mean_ms'))} ± {_ms(d.get('std_ms'))} over {d['runs']} runs")
    if d.get("peak_rss_mb"):
        parts.append(f"peak RSS {d['peak_rss_mb']:.0f} MB")
    console.print(", ".join(parts), highlight=False)
    if d.get("summary_ms"):
        console.print(f"runner summary: {d['summary_ms']}", highlight=False)
    for note in d.get("notes") or []:
        console.print(f"note: {note}", highlight=False)


def _ms(value: float | None) -> str:
    """A latency for display; '-' where the runner gave none (never an invented number)."""
    return "-" if value is None else f"{value:.3f} ms"


def print_compare(console: Console, results: dict) -> None:
    table = Table(title=f"dynamic (eager) vs static (exported) on {results.get('device', 'local')}")
    for column in (
        "entry",
        "runtime",
        "p50 ms",
        "p90 ms",
        "first ms",
        "init ms",
        "memory added MB",
        "speed-up",
    ):
        table.add_column(column)
    rows = results["results"]
    eager = rows[0]["p50_ms"] if rows else None
    for row in rows:
        ratio = f"{eager / row['p50_ms']:.2f}x" if eager and row["p50_ms"] else "-"
        added = row.get("peak_added_mb")
        rss = f"{added:.0f}" if added is not None else "-"
        table.add_row(
            row["label"],
            row["runtime"],
            f"{row['p50_ms']:.3f}",
            f"{row['p90_ms']:.3f}",
            f"{row['first_ms']:.2f}",
            f"{row['init_ms']:.1f}",
            rss,
            ratio,
        )
    console.print(table)
    console.print(
        "memory added: peak resident memory above the process baseline while the entry loads and runs; "
        "speed-up: eager p50 / entry p50",
        highlight=False,
    )
    if results.get("chart"):
        console.print(f"chart: {results['chart']}", highlight=False)
    for note in results.get("notes", []):
        console.print(f"note: {note}", highlight=False)


def print_devices(console: Console, found: list[dict]) -> None:
    table = Table(title="devices")
    for column in ("kind", "serial", "state", "model", "soc", "os"):
        table.add_column(column)
    for d in found:
        table.add_row(*(str(d.get(k) or "-") for k in ("kind", "serial", "state", "model", "soc", "os")))
    console.print(table)


def print_ops(console: Console, report: Any) -> None:
    data = report.to_dict()
    table = Table(title=f"check-ops --target {data['target']}: {'ok' if data['ok'] else 'NOT SUPPORTED'}")
    for column in ("op", "count", "supported", "reason", "where", "suggestion"):
        table.add_column(column)
    for op in data["ops"]:
        table.add_row(
            op["op"],
            str(op["count"]),
            "yes" if op["supported"] else "[red]no[/]",
            op.get("reason") or "",
            ", ".join(op.get("where") or []),
            op.get("suggestion") or "",
        )
    console.print(table)
    for note in data.get("notes", []):
        console.print(f"note: {note}", highlight=False)
