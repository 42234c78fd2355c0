"""Branch coverage for verification: which converted branches the verify inputs take, and extra
inputs (negated, scaled, ...) that flip predicates the others did not."""

from __future__ import annotations

import os
from collections.abc import Sequence

import torch

from deploy.exporter.verify import Case

_IF_BRANCHES = {"then", "else"}
# A loop should be seen running once and more than once; zero iterations is not always possible.
_LOOP_BRANCHES = {"loop 1 iteration", "loop 2+ iterations"}


def _site_name(file: str, line: int) -> str:
    return f"{os.path.relpath(file) if file.startswith(os.getcwd()) else file}:{line}"


def _taken(module: torch.nn.Module, inputs: tuple) -> set[tuple[str, int, str]] | None:
    """(file, line, branch) triples the rewritten module takes eagerly on ``inputs``; None if it raises."""
    from deploy.rewriters.coverage import record_branches

    with torch.no_grad(), record_branches() as coverage:
        try:
            module(*inputs)
        except Exception:  # a candidate may be invalid for the model (e.g. an index out of range)
            return None
    return coverage.pairs()


def covering_cases(
    rewritten: torch.nn.Module, example: tuple, cases: Sequence[Case]
) -> tuple[list[Case], dict[str, dict[str, list[str]]]]:
    """Extra cases that add branch coverage, and per site the branches covered / not covered."""
    from deploy.rewriters.coverage import LABELS, candidate_inputs

    seen: set[tuple[str, int, str]] = set()
    for case in cases:
        seen |= _taken(rewritten, case.inputs) or set()
    extra = []
    for index, candidate in enumerate(candidate_inputs(example)):
        taken = _taken(rewritten, candidate)
        if taken and taken - seen:
            label = LABELS[index] if index < len(LABELS) else str(index)
            extra.append(Case(f"branch flip ({label})", candidate))
            seen |= taken
    by_site: dict[tuple[str, int], set[str]] = {}
    for file, line, branch in seen:
        by_site.setdefault((file, line), set()).add(branch)
    report = {}
    for (file, line), taken in sorted(by_site.items()):
        expected = _IF_BRANCHES if taken <= _IF_BRANCHES else _LOOP_BRANCHES
        missing = sorted(expected - taken)
        report[_site_name(file, line)] = {"covered": sorted(taken), "not_covered": missing}
    return extra, report
