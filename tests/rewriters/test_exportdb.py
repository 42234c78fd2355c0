"""ExportDB (torch._export.db.examples) still exports after rewrite_module: every example that
torch.export accepts unrewritten must export rewritten, and compute the same on its inputs."""

from __future__ import annotations

import copy
import logging
import warnings
from pathlib import Path

import pytest
import torch
import torch._export.db.examples as examples_package
from torch._export.db.examples import all_examples

from deploy.rewriters import convert, rewrite_module

EXAMPLES = all_examples()


@pytest.fixture(autouse=True)
def _examples_are_user_code(monkeypatch):
    # ExportDB lives inside torch, which rewrite_module leaves alone; here it stands in for user code.
    monkeypatch.setattr(convert, "EXTRA_USER_PATHS", [str(Path(examples_package.__file__).parent)])


def _export(module, case):
    return torch.export.export(
        module, case.example_args, case.example_kwargs, dynamic_shapes=case.dynamic_shapes, strict=False
    )


def test_exportdb_has_examples():
    assert len(EXAMPLES) >= 20


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_exportdb_example_still_exports(name):
    warnings.filterwarnings("ignore")
    logging.getLogger("torch").setLevel(logging.ERROR)
    case = EXAMPLES[name]
    try:
        baseline = _export(copy.deepcopy(case.model), case)
    except Exception:  # some examples document what export rejects; nothing to regress there
        pytest.skip("torch.export rejects this example without rewriting too")
    result = rewrite_module(case.model, case.example_args)
    rewritten = result.module
    program = _export(rewritten, case)
    inputs = copy.deepcopy((case.example_args, case.example_kwargs))  # some examples mutate inputs
    expected = torch.utils._pytree.tree_leaves(baseline.module()(*inputs[0], **inputs[1]))
    inputs = copy.deepcopy((case.example_args, case.example_kwargs))
    got = torch.utils._pytree.tree_leaves(program.module()(*inputs[0], **inputs[1]))
    assert len(got) == len(expected)
    for a, b in zip(got, expected):
        if isinstance(b, torch.Tensor):
            torch.testing.assert_close(a, b)
        else:
            assert a == b
