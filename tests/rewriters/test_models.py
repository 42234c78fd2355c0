"""Every test model (one per construct, in the style of user code) exports to ONNX through
rewrite_module and matches eager on inputs that take every path of its control flow."""

from __future__ import annotations

import pytest

from tests.rewriters.harness import check
from tests.rewriters.models import CASES


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_model_exports_and_matches_eager_on_every_path(case):
    outcome = check(case.model(), case.example, case.verify, case.dynamic_shapes)
    kinds = {r.kind for r in outcome.rewrites}
    assert set(case.constructs) <= kinds, f"expected {case.constructs}, the export emitted {kinds}"
    uncovered = outcome.all_branches - outcome.branches
    assert not uncovered, f"no input took {sorted(uncovered)}"
    assert outcome.cases >= 2


def test_at_least_twenty_models():
    assert len(CASES) >= 20


def test_config_flags_stay_plain_python():
    case = next(c for c in CASES if c.name == "config_flags_stay_python")
    outcome = check(case.model(), case.example, [], case.dynamic_shapes)
    # self.training, self.residual, the ModuleList loop and the static size check: no graph ops
    assert [r.kind for r in outcome.rewrites] == ["if->cond"]
    assert outcome.rewrites[0].line == 83


def _lines_of(cls, *snippets: str) -> list[int]:
    import inspect

    lines, first = inspect.getsourcelines(cls.forward)
    return [first + next(i for i, line in enumerate(lines) if snippet in line) for snippet in snippets]


def test_sites_nested_inside_graph_ops_are_listed():
    from tests.rewriters.models import nested

    case = next(c for c in CASES if c.name == "select_in_loop_in_tensor_if")
    outcome = check(case.model(), case.example, case.verify, case.dynamic_shapes)
    outer, loop, inner = _lines_of(nested.SelectInLoopInBranch, "x.sum() > 0", "for t in", "step.sum() > 0")
    assert [(r.kind, r.line) for r in outcome.rewrites] == [
        ("if->cond", outer),
        ("for->while_loop", loop),
        ("if->cond", inner),  # a tensor `if` in a loop body is a cond first (selects: when that fails)
    ]
    # the nested `if` is covered on both sides by the eager runs
    assert {(inner, "then"), (inner, "else")} <= {(line, b) for _, line, b in outcome.branches}

    case = next(c for c in CASES if c.name == "nested_dynamic_for_for")
    outcome = check(case.model(), case.example, case.verify, case.dynamic_shapes)
    rows, cols = _lines_of(nested.GridSum, "for i in", "for j in")
    assert [(r.kind, r.line) for r in outcome.rewrites] == [
        ("for->while_loop", rows),
        ("for->while_loop", cols),
    ]


def test_unbind_over_static_channels_adds_no_graph_loop():
    case = next(c for c in CASES if c.name == "unbind_static_channels_stay_python")
    outcome = check(case.model(), case.example, case.verify, case.dynamic_shapes)
    assert outcome.rewrites == []
