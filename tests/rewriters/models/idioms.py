"""Python idioms over tensors that a loop or branch must keep dynamic: iterating a tensor's rows
(`for row in x`, over a masked selection too), `for i in keep.tolist()`, a `return` from a range
loop, a state machine whose states are strings, and a string a branch (or a helper's return) picks keying a
ModuleDict; a comparison of tuples of ints read from a tensor (`(r, c) != (r0, c0)`); a list
comprehension over station numbers whose tensor test keeps some entries (`[b[s] for s in range(3)
if work[s] >= 0.05]`), stacked, inside a graph loop."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded

ROWS = torch.export.Dim("rows", min=4, max=32)


class PositiveRows(nn.Module):
    """`for row in x` with a tensor test, and `for row in x[mask]` (a data-dependent row count)."""

    def forward(self, x):
        acc = torch.zeros(x.shape[1])
        for row in x:
            if row.sum() > 0:
                acc = acc + row
        peak = torch.zeros(x.shape[1])
        for row in x[x[:, 0] > 0]:
            peak = torch.maximum(peak, row)
        return acc, peak


class ListedIndices(nn.Module):
    """`for i in idx.tolist()` over the positions of a mask."""

    def forward(self, x):
        idx = torch.nonzero(x[:, 0] > 0).view(-1)
        out = torch.zeros(x.shape[1])
        for i in idx.tolist():
            out = out * 0.5 + x[i]
        return out


class SecondHit(nn.Module):
    """Returns the step of the second hit from inside a range loop, reading its counter."""

    def forward(self, x):
        hits = 0
        for t in range(x.shape[0]):
            if (x[t] > 1.5).any():
                hits += 1
                if hits >= 2:
                    return torch.tensor(t)
        return torch.tensor(-1)


class RepCounter(nn.Module):
    """An "idle" / "up" state machine: a rep is counted on the way back down."""

    def forward(self, x):
        phase = "idle"
        reps = torch.zeros((), dtype=torch.long)
        for t in range(x.shape[0]):
            v = x[t].mean()
            if phase == "idle" and v > 0.5:
                phase = "up"
            elif phase in ("up",) and v < -0.5:
                phase = "idle"
                reps = reps + 1
        return reps


class HeadByName(nn.Module):
    """A head picked by the name a tensor branch chose: `self.heads[kind](h)` on an nn.ModuleDict."""

    def __init__(self):
        super().__init__()
        self.heads = nn.ModuleDict({name: nn.Linear(4, 3) for name in ("wide", "tall", "flat")})

    def forward(self, x):
        h = x.mean(0)
        if h.sum() > 0.5:
            kind = "wide"
        elif h.abs().max() > 1.0 or x.std() > 1.5:
            kind = "tall"
        else:
            kind = "flat"
        return self.heads[kind](h) * (2.0 if kind == "flat" else 1.0)


def row_kind(row):
    """A label picked by tensor tests, returned as a string literal."""
    if row.mean() > 0.5:
        return "wide"
    if row.abs().max() > 1.0 and row.std() > 0.5:
        return "tall"
    return "flat"


class HeadPerRow(nn.Module):
    """A helper returning string labels, used per row as a ModuleDict key and compared with a literal."""

    def __init__(self):
        super().__init__()
        self.heads = nn.ModuleDict({name: nn.Linear(4, 3) for name in ("wide", "tall", "flat")})

    def forward(self, x):
        outs = []
        for i in range(x.shape[0]):
            kind = row_kind(x[i])
            y = self.heads[kind](x[i])
            if kind == "flat":
                y = y * 2.0
            outs.append(y)
        return torch.stack(outs)


def _x(n, seed, scale=1.0):
    return (scale * torch.randn(n, 4, generator=torch.Generator().manual_seed(seed)),)


_VERIFY = [_x(4, 1), _x(9, 2, 2.0), (-torch.ones(5, 4),), (torch.ones(5, 4),)]


class OtherCells(nn.Module):
    """`(r, c) != (r0, c0)` of ints read from tensors: compared entry by entry, as Python does."""

    def forward(self, cells, origin):
        r0, c0 = int(origin[0]), int(origin[1])
        total = torch.zeros(())
        for k in range(cells.shape[0]):
            r, c = int(cells[k, 0]), int(cells[k, 1])
            if (r, c) != (r0, c0):
                total = total + (r - r0) ** 2 + (c - c0) ** 2
        return total


def _cells(rows: list, origin: tuple) -> tuple:
    return torch.tensor(rows), torch.tensor(origin)


class BusiestUsedStation(nn.Module):
    """Per ticket, the latest backlog among the stations the ticket uses (its entries kept by a
    tensor test, kept_rows.KeptRows), stacked and reduced inside the loop over tickets."""

    def forward(self, tickets):
        backlog = [torch.zeros(()) for _ in range(3)]
        done = torch.zeros(tickets.shape[0])
        for i in range(tickets.shape[0]):
            work = tickets[i]
            if (work < 0.05).all():
                continue
            for s in range(3):
                backlog[s] = backlog[s] + work[s]
            done[i] = torch.stack([backlog[s] for s in range(3) if work[s] >= 0.05]).max()
        return done


CASES = [
    Case("rows_of_a_tensor_and_of_a_masked_selection", seeded(PositiveRows), _x(6, 0), _VERIFY, ({0: ROWS},)),
    Case("loop_over_tolist_of_positions", seeded(ListedIndices), _x(6, 0), _VERIFY, ({0: ROWS},)),
    Case(
        "return_from_a_range_loop_reading_its_counter",
        seeded(SecondHit),
        _x(6, 0, 2.0),
        _VERIFY,
        ({0: ROWS},),
    ),
    Case(
        "string_states_in_a_loop",
        seeded(RepCounter),
        (torch.tensor([[0.0] * 4, [1.0] * 4, [-1.0] * 4, [1.0] * 4, [0.0] * 4, [-1.0] * 4]),),
        [(torch.tensor([[0.0] * 4, [1.0] * 4, [1.0] * 4, [0.0] * 4]),), _x(9, 2, 2.0), (-torch.ones(5, 4),)],
        ({0: ROWS},),
        constructs=("for->while_loop",),
    ),
    Case(
        "module_dict_keyed_by_a_string_a_branch_picks",
        seeded(HeadByName),
        (torch.ones(5, 4),),
        [  # tall by each side of the `or`, flat twice, wide
            (-2 * torch.ones(5, 4),),
            (torch.tensor([[3.0] * 4, [-3.0] * 4] * 3),),
            (torch.zeros(6, 4),),
            (-0.5 * torch.ones(4, 4),),
            _x(8, 3, 3.0),
        ],
        ({0: ROWS},),
        constructs=("if->cond", "index->cond"),
    ),
    Case(
        "module_dict_keyed_by_a_helpers_string_return",
        seeded(HeadPerRow),
        (torch.tensor([[1.0] * 4, [2.0, -2.0, 2.0, -2.0], [0.0] * 4, [-1.0] * 4]),),
        [  # rows of each label: wide, tall, flat (twice: zero and negative), and random rows
            (torch.tensor([[1.0] * 4, [2.0, -2.0, 2.0, -2.0], [0.0] * 4, [-1.0] * 4]),),
            (torch.tensor([[0.0] * 4, [3.0, -3.0, 3.0, -3.0], [0.9] * 4, [0.1] * 4, [-2.0] * 4]),),
            _x(8, 3, 3.0),
        ],
        ({0: ROWS},),
    ),
    Case(
        "a_comparison_of_tuples_of_ints_read_from_a_tensor",
        seeded(OtherCells),
        _cells([[1, 2], [3, 3], [1, 4]], (1, 2)),
        [
            _cells([[1, 2], [3, 3], [1, 4]], (1, 2)),  # the origin itself skipped, others counted
            _cells([[5, 5], [5, 5]], (5, 5)),  # all equal: nothing counted
            _cells([[0, 1], [2, 0], [4, 4], [1, 1]], (1, 0)),  # one entry equal, the other not
        ],
        ({0: torch.export.Dim("cells", min=2, max=16)}, None),
        constructs=("if->cond",),
    ),
    Case(
        "a_list_comprehension_over_numbers_with_a_tensor_test_stacked_in_a_loop",
        seeded(BusiestUsedStation),
        (torch.tensor([[8.0, 4.0, 0.0], [0.0, 0.0, 3.0], [0.0, 0.0, 0.0], [6.0, 0.0, 4.0]]),),
        [
            (torch.tensor([[8.0, 4.0, 0.0], [0.0, 0.0, 3.0], [0.0, 0.0, 0.0], [6.0, 0.0, 4.0]]),),
            (torch.tensor([[1.0, 1.0, 1.0], [2.0, 0.0, 0.0]]),),  # every station, then one
            (torch.tensor([[0.0, 0.0, 0.0], [0.0, 5.0, 0.0], [0.0, 0.0, 0.0]]),),  # mostly skipped
        ],
        ({0: torch.export.Dim("tickets", min=2, max=16)},),
        constructs=("for->while_loop",),
    ),
]
