"""What cannot convert fails with NotDeployableError at the user's line, with a source window;
branch coverage records what eager runs took; candidate inputs flip predicates."""

from __future__ import annotations

import inspect

import pytest
import torch

from deploy.errors import NotDeployableError
from deploy.exporter.export import export_program
from deploy.rewriters import rewrite_module
from deploy.rewriters.coverage import candidate_inputs, record_branches
from tests.rewriters import error_models


def _line_of(cls, text: str) -> int:
    lines, first = inspect.getsourcelines(cls)
    return first + next(i for i, line in enumerate(lines) if text in line)


@pytest.mark.parametrize(
    ("cls", "marker", "words"),
    [
        (error_models.OneBranchTensor, "if x.sum() > 0", "assigned in only one branch"),
        (error_models.DifferentStructures, "if x.mean() > 0", "different structure"),
        (error_models.RaisesOnTensor, "if torch.isnan", "raise"),
        (error_models.AppendInWhile, "while x.sum() < 10", "mutates"),
        (error_models.DtypeChangeInLoop, "while x.sum() < 10", "dtype"),
    ],
)
def test_unconvertible_constructs_name_the_user_line(cls, marker, words):
    result = rewrite_module(cls(), (torch.randn(3),))
    with pytest.raises(NotDeployableError) as caught:
        torch.export.export(result.module, (torch.randn(3),), strict=False)
    error = caught.value
    assert error.file == inspect.getsourcefile(error_models)
    assert error.line == _line_of(cls, marker)
    assert words in error.message
    assert ">" in error.detail and marker in error.detail


def test_a_torch_error_while_running_the_users_code_names_its_line():
    # torch.cat of (2, 5) and (2, 6) rows inside the list's `+`: no line in torch's message, the
    # user's line from the traceback instead
    util = torch.rand(4)
    shapes = ({0: torch.export.Dim("cores", min=2, max=16)},)
    module = rewrite_module(error_models.MixedTables(), (util,), shapes).module
    with pytest.raises(NotDeployableError) as caught:
        export_program(module, (util,), shapes)
    error = caught.value
    assert error.file == inspect.getsourcefile(error_models)
    assert error.line == _line_of(error_models.MixedTables, "tables = [self.little]")
    assert "shapes (5,) and (6,)" in error.message and "one shape" in error.message


def test_eager_runs_of_the_rewritten_module_match_the_original():
    model = error_models.OneBranchTensor()
    result = rewrite_module(model, (torch.ones(3),))
    assert torch.equal(result.module(torch.ones(3)), model(torch.ones(3)))
    assert result.module.forward is not model.forward  # the original keeps its eager forward


def test_record_branches_and_candidates_cover_both_sides():
    model = error_models.RaisesOnTensor()
    result = rewrite_module(model)
    example = (torch.ones(4),)
    with record_branches() as taken:
        for inputs in [example, *candidate_inputs(example)]:
            result.module(*inputs)
    ((site, branches),) = taken.branches.items()
    assert site[1] == _line_of(error_models.RaisesOnTensor, "if torch.isnan")
    assert branches == {"else"}  # no candidate makes a NaN: the raise path stays uncovered
    negated = candidate_inputs(example)[0][0]
    assert torch.equal(negated, -example[0])


def test_a_torch_message_ending_in_a_colon_keeps_what_follows():
    # "... same metadata but found:" alone does not say which loop variable differs
    from deploy.rewriters.error_text import _explain

    exc = RuntimeError(
        "Expected body_fn_output and carried_inputs to have same metadata but found:\n"
        "pair[3] differ in 'shape: torch.Size([2]) vs torch.Size([])'\n\nmore"
    )
    assert _explain(exc) == (
        "Expected body_fn_output and carried_inputs to have same metadata but found: "
        "pair[3] differ in 'shape: torch.Size([2]) vs torch.Size([])'"
    )
