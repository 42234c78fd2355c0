"""Exports in one process do not leak into each other: a graph-op body dynamo compiled for one model
must not specialise the next model's dynamic dims."""

from __future__ import annotations

import pytest
import torch
from torch import nn

from tests.rewriters.harness import check


class NanGuard(nn.Module):
    def forward(self, x):
        if torch.isnan(x).any():
            x = torch.nan_to_num(x, nan=0.0)
        return x.sum(dim=-1)


class ReluIfPositive(nn.Module):
    def forward(self, x):
        if x.mean() > 0:
            x = torch.relu(x)
        return x


def test_second_export_in_a_process_keeps_its_dynamic_dims():
    first = check(
        NanGuard(),
        (torch.rand(4, 5),),
        [(torch.full((4, 3), float("nan")),)],
        ({1: torch.export.Dim("width", min=2, max=32)},),
    )
    assert [r.kind for r in first.rewrites] == ["if->cond"]
    second = check(
        ReluIfPositive(),
        (torch.randn(2, 10),),
        [(torch.randn(1, 10) * -30,), (torch.randn(7, 10) * 30,)],
        ({0: torch.export.Dim("batch", min=1, max=16)},),
    )
    assert [r.kind for r in second.rewrites] == ["if->cond"]
    assert second.branches >= second.all_branches


def test_flags_an_earlier_trace_left_set_are_cleared_by_the_next_rewrite():
    from deploy.rewriters.trace_state import TRACE_STATE

    TRACE_STATE.probing, TRACE_STATE.in_loop_body, TRACE_STATE.conds_in_body = True, True, False
    outcome = check(ReluIfPositive(), (torch.randn(2, 10),), [(torch.randn(2, 10) * -30,)])
    assert [r.kind for r in outcome.rewrites] == ["if->cond"]


def test_a_named_row_at_a_run_time_position_reads_its_numbers_and_refuses_its_names():
    from deploy.rewriters.sequences import UnreadableEntry, seq_item

    rows = [("small", 5.0, False), ("small", 8.0, True), ("large", 20.0, True)]
    name, capacity, ok = seq_item(rows, torch.tensor(1))
    assert float(capacity) == 8.0 and bool(ok) is True
    assert isinstance(name, UnreadableEntry)
    with pytest.raises(TypeError, match="position known only at run time"):
        _ = name == "small"
    shared = seq_item([("a", 1), ("a", 2)], torch.tensor(0))
    assert shared[0] == "a" and int(shared[1]) == 1  # one name for every row stays that name


def test_a_split_loop_takes_an_int_chunk_size_and_names_a_list_of_sizes():
    from deploy.rewriters.sequences import split_step

    assert split_step(6) == 6
    with pytest.raises(TypeError, match="int chunk size"):
        split_step([2, 3])


class TakeAtCount(nn.Module):
    def forward(self, b):
        n = (b > 0).sum().item()
        torch._check(n >= 0)
        return torch.arange(n + 1)[n]


def test_a_loop_traced_again_leaves_torch_function_handling_on_for_the_next_export():
    # the state machine's loop is first traced with conds in its body; dynamo gives up on a
    # data-dependent guard there, which left torch's __torch_function__ handling off (non-strict
    # export's handler bypassed: `t[u0]` failed in every later export of the process)
    from tests.rewriters.models import CASES

    case = next(c for c in CASES if c.name == "a_state_machine_whose_nested_while_appends_skipped_samples")
    check(case.model(), case.example, case.verify, case.dynamic_shapes)
    assert not torch._C._is_torch_function_all_disabled()
    torch._dynamo.reset()
    program = torch.export.export(TakeAtCount(), (torch.tensor([1, 2, 0]),), strict=False)
    assert int(program.module()(torch.tensor([3, 0, 5]))) == 2
