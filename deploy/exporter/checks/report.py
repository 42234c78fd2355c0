"""The check-ops report: one row per op type (count, supported, reason, where, suggestion).

Each backend check produces ``Occurrence`` records, one per node it inspected; ``build_report``
groups them by op type so that every problem of a model shows up in one run.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from deploy.errors import UnsupportedOpError


@dataclass
class Occurrence:
    """One node as a backend sees it: its op type, whether it runs there and why not."""

    op: str
    supported: bool
    reason: str = ""
    where: tuple[str, int] | None = None  # the user's (file, line)


@dataclass
class OpRow:
    """All occurrences of one op type."""

    op: str
    count: int
    supported: bool
    reason: str = ""
    where: list[str] = field(default_factory=list)
    suggestion: str = ""

    def to_dict(self) -> dict:
        return {
            "op": self.op,
            "count": self.count,
            "supported": self.supported,
            "reason": self.reason,
            "where": list(self.where),
            "suggestion": self.suggestion,
        }


@dataclass
class OpsReport:
    """What ``target`` can and cannot run; ``ok`` is True when every op is supported."""

    target: str
    ops: list[OpRow] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(row.supported for row in self.ops)

    @property
    def unsupported(self) -> list[OpRow]:
        return [row for row in self.ops if not row.supported]

    def to_dict(self) -> dict:
        data = {"target": self.target, "ok": self.ok, "ops": [row.to_dict() for row in self.ops]}
        if self.notes:
            data["notes"] = list(self.notes)
        return data

    def to_error(self) -> UnsupportedOpError:
        """An UnsupportedOpError naming the first unsupported op's source line, the table as detail."""
        bad = self.unsupported
        names = ", ".join(row.op for row in bad)
        first = next((row.where[0] for row in bad if row.where), None)
        file, line = split_where(first) if first else (None, None)
        # when torch.onnx's own decompositions failed, the undecomposed program was checked: its
        # ops (aten.item, ...) are not the cause, the failure is
        failed = next((n for n in self.notes if "decompositions failed" in n), None)
        cause = f" ({failed})" if failed else ""
        whole = next((row for row in bad if row.op == "(model)"), None)
        if whole is not None and len(bad) == 1:  # no single op to blame: the runtime's own words
            return UnsupportedOpError(f"--target {self.target}: {whole.reason}", detail=format_table(self))
        return UnsupportedOpError(
            f"--target {self.target} cannot run {len(bad)} op type(s): {names}{cause}",
            file=file,
            line=line,
            detail=format_table(self),
        )


def format_where(where: tuple[str, int]) -> str:
    """'path:line', the path relative to the working directory when it lies below it."""
    path, line = where
    try:
        shown = os.path.relpath(path)
        if shown.startswith(".."):
            shown = path
    except ValueError:  # another drive on Windows
        shown = path
    return f"{shown}:{line}"


def split_where(text: str) -> tuple[str, int | None]:
    path, _, line = text.rpartition(":")
    return (path, int(line)) if line.isdigit() else (text, None)


def _dedupe(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))


def build_report(
    target: str,
    occurrences: Iterable[Occurrence],
    suggest: Callable[[str, str], str] | None = None,
    notes: list[str] | None = None,
) -> OpsReport:
    """Group occurrences by op type; unsupported rows first, then by name."""
    groups: dict[str, list[Occurrence]] = {}
    for occurrence in occurrences:
        groups.setdefault(occurrence.op, []).append(occurrence)
    rows = []
    for op, items in groups.items():
        bad = [o for o in items if not o.supported]
        shown = bad or items
        reason = ""
        if bad:
            reasons = _dedupe(o.reason or "not supported" for o in bad)
            reason = "; ".join(reasons)
            if len(bad) < len(items):
                reason = f"{len(bad)} of {len(items)}: {reason}"
        rows.append(
            OpRow(
                op=op,
                count=len(items),
                supported=not bad,
                reason=reason,
                where=_dedupe(format_where(o.where) for o in shown if o.where),
                suggestion=suggest(op, reason) if bad and suggest else "",
            )
        )
    rows.sort(key=lambda row: (row.supported, row.op))
    return OpsReport(target, rows, list(notes or []))


def format_table(report: OpsReport) -> str:
    """A plain-text table of the unsupported rows (for error details and logs)."""
    lines = [f"check-ops --target {report.target}: {'ok' if report.ok else 'NOT SUPPORTED'}"]
    for row in report.unsupported:
        where = ", ".join(row.where) or "-"
        lines.append(f"  {row.op} x{row.count}: {row.reason} [at {where}]")
        if row.suggestion:
            lines.append(f"    suggestion: {row.suggestion}")
    return "\n".join(lines)


def short_path(path: str | Path) -> str:
    return format_where((str(path), 0)).rsplit(":", 1)[0]
