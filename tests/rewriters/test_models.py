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
