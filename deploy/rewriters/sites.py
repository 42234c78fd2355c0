"""Conversion sites: one per converted `if`/ternary/`while`/`for` in the user's source.

A site keeps the user's file and line so every rewrite, error and coverage entry names the user's
code, not the generated code. The runtime operators receive a site id and report here (1) that
they emitted a graph op while exporting (``emitted``), and (2) which branch they took while
running eagerly under ``coverage.record_branches()``.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import torch
from torch._dynamo.comptime import comptime

from deploy.errors import NotDeployableError


@dataclass(frozen=True)
class Rewrite:
    """One rewrite, as printed on the console and stored in report.json ``rewrites``."""

    # "if->cond", "ifexp->cond", "if->where", "ifexp->where", "while->while_loop", "for->while_loop",
    # "for->scan", "if->sym_ite" (a size branch that assigns only sizes)
    kind: str
    file: str
    line: int
    what: str

    def to_dict(self) -> dict:
        return {"kind": self.kind, "file": self.file, "line": self.line, "what": self.what}

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.kind}: {self.what}"


@dataclass
class Site:
    """A converted statement or expression in the user's source."""

    id: int
    construct: str  # "if", "ifexp", "while", "for"
    file: str
    line: int
    what: str  # the source of the predicate or loop header
    window: str  # a few source lines around ``line``, the line marked with ">"
    unsupported: str = ""  # set when the branch body cannot live inside a graph op (why)
    emitted: set[str] = field(default_factory=set)  # graph op kinds emitted while tracing
    # lists a loop carries as rows (row_lists.py): name -> (appends in the body, or None when a
    # nested loop appends; whether every iteration makes exactly that many)
    row_appends: dict[str, tuple[int | None, bool]] = field(default_factory=dict)
    # of those, the lists the loop never empties or pops: each keeps at least the rows it starts with
    row_growing: frozenset[str] = frozenset()
    # their rows' static shapes and dtypes, as a probe at the top level found them (row_lists.py)
    row_shapes: dict[str, tuple] = field(default_factory=dict)
    # lists a `while` loop deletes entries of (passes/deletions.py): carried as rows and a count
    row_deleted: frozenset[str] = frozenset()
    # a `for` over a ceiling division of a size whose body slices from its counter (chunked_loop.py)
    ceiling_blocks: bool = False
    # a ternary whose test reads a size (`f(xs) if xs.numel() > 0 else z`): a cond in loop bodies too
    on_size: bool = False
    # an `if` in a loop body: a variable one branch leaves unbound gets a placeholder (operators)
    in_loop: bool = False

    def error(self, message: str) -> NotDeployableError:
        if torch.compiler.is_dynamo_compiling():
            # dynamo cannot build a user-defined exception inside a graph op's body: a builtin one
            # carries the site, and the cond/loop around it raises the real error (nested_error)
            return RuntimeError(f"[deploy-site {self.id}] {message} [/deploy-site]")  # type: ignore[return-value]
        return NotDeployableError(message, file=self.file, line=self.line, detail=self.window)


_MARKED = re.compile(r"\[deploy-site (\d+)\] (.*?) \[/deploy-site\]", re.S)


def marked_error(text: str) -> NotDeployableError | None:
    """The error a site raised inside a body dynamo traced (see Site.error), from ``text``."""
    found = _MARKED.search(text)
    if found is None or int(found.group(1)) not in _SITES:
        return None
    return get_site(int(found.group(1))).error(found.group(2).replace("\\'", "'"))


_SITES: dict[int, Site] = {}
_LOCK = threading.Lock()


def source_window(lines: list[str], line: int, first_line: int, context: int = 2) -> str:
    """Lines ``line-context .. line+context`` of a source whose first line is ``first_line``."""
    out = []
    for number in range(max(first_line, line - context), line + context + 1):
        index = number - first_line
        if 0 <= index < len(lines):
            mark = ">" if number == line else " "
            out.append(f"{mark} {number:5d} | {lines[index].rstrip()}")
    return "\n".join(out)


def new_site(construct: str, file: str, line: int, what: str, window: str, unsupported: str = "") -> Site:
    with _LOCK:
        site = Site(len(_SITES) + 1, construct, file, line, what, window, unsupported)
        _SITES[site.id] = site
    return site


def get_site(site_id: int) -> Site:
    return _SITES[site_id]


def mark_emitted(site_id: int, kind: str) -> None:
    """Record that the site emitted a graph op of ``kind``. Inside another graph op's body (traced by
    dynamo, where Python side effects are not allowed) the record is made at trace time through
    dynamo's ``comptime`` hook, so nested sites are listed too. Nothing is recorded while a probe
    traces a body only for its shapes (its nodes are dead)."""
    if torch.compiler.is_dynamo_compiling():
        comptime(_mark_while_tracing)
    elif not _PROBING[0]:
        _SITES[site_id].emitted.add(kind)


def _mark_while_tracing(ctx) -> None:
    # runs inside dynamo, in the frame of mark_emitted (no free variables allowed here)
    site_id, kind = ctx.get_local("site_id"), ctx.get_local("kind")
    if site_id.is_python_constant() and kind.is_python_constant() and not _PROBING[0]:
        _SITES[site_id.as_python_constant()].emitted.add(kind.as_python_constant())


_PROBING = [0]  # > 0 while a probe traces code whose graph ops are not kept


@contextmanager
def probing() -> Iterator[None]:
    """Within: graph ops the converted code emits are not recorded as rewrites (see mark_emitted)."""
    _PROBING[0] += 1
    try:
        yield
    finally:
        _PROBING[0] -= 1


def is_probing() -> bool:
    """Whether a probe is tracing code (its nodes are dead; guards are suppressed there, so a
    ``torch._check`` relates no sizes)."""
    return _PROBING[0] > 0


def emitted_rewrites(site_ids: list[int]) -> list[Rewrite]:
    """The rewrites that produced graph ops, for the given sites, in source order."""
    rewrites = []
    for site_id in site_ids:
        site = _SITES[site_id]
        for kind in sorted(site.emitted):
            rewrites.append(Rewrite(kind, site.file, site.line, site.what))
    return sorted(rewrites, key=lambda r: (r.file, r.line, r.kind))


# Eager branch recording (see coverage.py); None when not recording.
_RECORDER: list | None = None

# While recording, a plain Python loop at a converted site that runs longer than this raises
# LoopLimitExceeded: candidate inputs (negated, zeros, ...) can make a model's loop never end.
RECORDING_LOOP_LIMIT = 10_000


class LoopLimitExceeded(RuntimeError):
    """A converted loop ran past RECORDING_LOOP_LIMIT iterations while branches were recorded."""


def check_loop_limit(site_id: int, count: int) -> None:
    if _RECORDER is not None and count > RECORDING_LOOP_LIMIT:
        site = _SITES[site_id]
        raise LoopLimitExceeded(f"{site.file}:{site.line}: loop still running after {count - 1} iterations")


def record_branch(site_id: int, branch: str, tensor_valued: bool) -> None:
    """Record an eager decision at a site that is a graph op when exported: its predicate is a tensor
    now, or torch.export already emitted a graph op there (a dynamic-size branch). Config flags and
    static loops are never recorded, so coverage lists only branches the artifact contains."""
    if _RECORDER is not None and (tensor_valued or _SITES[site_id].emitted):
        _RECORDER.append((site_id, branch))
