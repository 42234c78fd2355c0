"""Loops over what ``.tolist()`` gave and lists of a count the model computes, and windows that run
past the end of the tensor:

- ``order = torch.argsort(key).tolist()`` then ``for i in order`` (passes/list_loops.py: the tensor
  while exporting, where a list would fix its dynamic length);
- ``[torch.zeros(()) for _ in range(n_doors)]`` of ``n_doors = int(doors.item())``
  (list_builtins.repeated), read and written at run-time positions by a `for`/`else` first-fit
  search nested in another loop (its loop-else slots probed inside dynamo: loop_operators);
- ``x[i : i + 3].mean()`` at every position, shorter near the end (window_spans.py).
"""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded


class SortedDecay(nn.Module):
    """Visit the entries in the order of a learned key (a list from ``.tolist()``)."""

    def __init__(self):
        super().__init__()
        self.key = nn.Linear(1, 1)

    def forward(self, x):
        order = torch.argsort(self.key(x[:, None]).squeeze(1) + x).tolist()
        acc = torch.zeros(())
        for i in order:
            if x[i] > 0:
                acc = acc * 0.5 + x[i]
            else:
                acc = acc - 0.1
        return acc, torch.tensor(len(order))


class FirstFitDoors(nn.Module):
    """Each job takes the first free door, else waits for the earliest one (`for`/`else`)."""

    def forward(self, arrivals, work, doors):
        n_doors = int(doors.item())
        free_at = [torch.zeros(()) for _ in range(n_doors)]
        door_of = torch.full((arrivals.shape[0],), -1, dtype=torch.long)
        for i in range(arrivals.shape[0]):
            for d in range(n_doors):
                if free_at[d] <= arrivals[i]:
                    chosen, begin = d, arrivals[i]
                    break
            else:
                chosen = int(torch.stack(free_at).argmin())
                begin = free_at[chosen]
            door_of[i] = chosen
            free_at[chosen] = begin + work[i]
        return door_of, torch.stack(free_at)


class TrailingMean(nn.Module):
    """A three-sample mean at every position: the last windows hold fewer samples."""

    def forward(self, x):
        out = []
        for i in range(x.shape[0]):
            w = x[i : i + 3].mean()
            out.append(w if w > 0 else -0.5 * w)
        return torch.stack(out)


class _Unit(nn.Module):
    def __init__(self, capacity):
        super().__init__()
        self.capacity = capacity
        self.curve = nn.Linear(1, 1)

    def forward(self, load):
        return self.curve(load[:, None]).squeeze(1)


class StagedUnits(nn.Module):
    """Units brought on in a fixed order until their capacity covers the peak (a tensor `break`),
    then each staged unit's output summed (a loop over the list of modules) and their count."""

    def __init__(self):
        super().__init__()
        self.units = nn.ModuleList([_Unit(c) for c in (3.0, 2.0, 2.0, 1.0)])
        self.order = [1, 0, 3, 2]

    def forward(self, load):
        staged = []
        capacity = torch.zeros(())
        for idx in self.order:
            if capacity >= load.max():
                break
            staged.append(self.units[idx])
            capacity = capacity + self.units[idx].capacity
        power = torch.zeros_like(load)
        for unit in staged:
            power = power + unit.capacity / capacity * unit(load)
        return power, torch.tensor(len(staged))


class FillSlots(nn.Module):
    """Each score goes to the first open slot it beats (flags in a Python list set under tensor
    tests); the loop stops once every slot is used (``all(used)``)."""

    def forward(self, scores):
        used = [False] * 3
        card = torch.zeros(3)
        for t in range(scores.shape[0]):
            if all(used):
                break
            for c in range(3):
                if not used[c] and scores[t] > c:
                    used[c] = True
                    card[c] = scores[t]
                    break
        return card, torch.tensor(any(used)).long()


class MergeCloseRuns(nn.Module):
    """Runs of positive samples as (start, end) pairs, a run starting close to the last one merged
    into it (``merged[-1] = (merged[-1][0], e)``), then each merged run marked."""

    def forward(self, x):
        runs = []
        start = None
        for i in range(x.shape[0]):
            if x[i] > 0:
                if start is None:
                    start = i
            elif start is not None:
                runs.append((start, i))
                start = None
        if start is not None:
            runs.append((start, x.shape[0]))
        merged = []
        for s, e in runs:
            if merged and s - merged[-1][1] <= 1:
                merged[-1] = (merged[-1][0], e)
            else:
                merged.append((s, e))
        mask = torch.zeros(x.shape[0])
        for s, e in merged:
            mask[s:e] = 1.0
        return mask


class MergedPeaks(nn.Module):
    """Peak positions from ``(mask.nonzero().flatten() + 1).tolist()``, a peak close to the last one
    replacing it when higher; then the peaks' heights."""

    def forward(self, x):
        mid = x[1:-1]
        is_peak = (mid > x[:-2]) & (mid >= x[2:])
        peaks = []
        for p in (is_peak.nonzero().flatten() + 1).tolist():
            if peaks and p - peaks[-1] < 3:
                if x[p] > x[peaks[-1]]:
                    peaks[-1] = p
                continue
            peaks.append(p)
        heights = torch.zeros(4)
        for b, p in enumerate(peaks):
            if b >= 4:
                break
            heights[b] = x[p]
        return heights


def _successors(deps, i):
    return deps[:, i].nonzero().flatten().tolist()


class CriticalPath(nn.Module):
    """Longest path to the end of a DAG, filled backwards into ``[None] * n`` over the successors a
    helper returns as ``nonzero().tolist()``."""

    def forward(self, deps, latency):
        n = latency.shape[0]
        deps = torch.tril(deps, diagonal=-1)  # each entry depends on earlier ones only
        cp = [None] * n
        for i in range(n - 1, -1, -1):
            longest = torch.zeros(())
            for s in _successors(deps, i):
                longest = torch.maximum(longest, cp[s])
            cp[i] = latency[i] + longest
        return torch.stack(cp)


class RenewOrTake(nn.Module):
    """Per request: a renewal picks its slot and `continue`s; otherwise the slot is the one asked for
    when free, else the first free one, else none (`j` bound in one branch only, bound again before
    it is read)."""

    def forward(self, busy, asks):
        busy = busy.clone()
        got = []
        for r in range(asks.shape[0]):
            mine = busy == asks[r, 0]
            if mine.any():
                j = int(mine.int().argmax().item())
                got.append(torch.tensor(j))
                continue
            want = int(asks[r, 1].item())
            if busy[want] == 0:
                j = want
            else:
                for j in range(busy.shape[0]):
                    if busy[j] == 0:
                        break
                else:
                    got.append(torch.tensor(-1))
                    continue
            busy[j] = asks[r, 0]
            got.append(torch.tensor(j))
        return torch.stack(got), busy


def _dag(n, seed):
    g = torch.Generator().manual_seed(seed)
    deps = torch.tril((torch.rand(n, n, generator=g) < 0.3).float(), diagonal=-1)
    return deps, 1.0 + torch.rand(n, generator=g)


def _jobs(n, doors, seed, gap=2.0):
    g = torch.Generator().manual_seed(seed)
    arrivals = torch.cumsum(gap * torch.rand(n, generator=g), 0)
    return arrivals, 1.0 + 4.0 * torch.rand(n, generator=g), torch.tensor([doors])


def _signal(n, seed):
    return (torch.randn(n, generator=torch.Generator().manual_seed(seed)),)


class LevelsWithHysteresis(nn.Module):
    """Thresholds read from a tuple of numbers at a level the loop computes, and a per-column
    median that is only taken over a non-empty selection (a ternary on its size)."""

    def __init__(self):
        super().__init__()
        self.up = (2.0, 4.0, 8.0)

    def forward(self, x):
        levels = []
        for s in range(x.shape[1]):
            col = x[:, s]
            live = col[col > 0]
            levels.append(live.median() if live.numel() > 0 else torch.tensor(1.0))
        base = torch.stack(levels)
        level = 0
        out = []
        for w in range(x.shape[0]):
            ratio = (x[w] / base).mean()
            if level < 3 and ratio > self.up[level]:
                level += 1
            out.append(torch.tensor(level))
        return torch.stack(out)


class PartialSale(nn.Module):
    """A 1-element tensor stored into one entry (``sell[i] = torch.ceil(remaining / per)``)."""

    def forward(self, lots, target):
        sell = torch.zeros(lots.shape[0])
        remaining = target.clone()
        for i in range(lots.shape[0]):
            if lots[i] >= remaining:
                sell[i] = torch.ceil(remaining / 2.0)
                break
            sell[i] = lots[i]
            remaining = remaining - lots[i]
        return sell, remaining


def _tremor(n, stations, seed, scale=1.0):
    x = scale * (1.0 + torch.rand(n, stations, generator=torch.Generator().manual_seed(seed)))
    x[n // 2 :] *= 5.0
    return (x,)


CASES = [
    Case(
        "a_loop_over_an_argsort_made_a_list",
        seeded(SortedDecay),
        (torch.tensor([1.5, -2.0, 3.5, 4.0, -1.0, 2.5]),),
        [(torch.tensor([-1.0, -2.0]),), _signal(40, 3)],
        ({0: torch.export.Dim("n", min=2, max=64)},),
        constructs=("for->while_loop", "if->cond"),
    ),
    Case(
        "first_fit_over_a_list_of_a_computed_count",
        seeded(FirstFitDoors),
        _jobs(8, 2, 1),
        [_jobs(2, 1, 2, gap=0.1), _jobs(20, 3, 3), _jobs(12, 4, 4, gap=0.2)],
        ({0: torch.export.Dim("jobs", min=2, max=32)}, {0: torch.export.Dim("jobs", min=2, max=32)}, None),
        constructs=("for->while_loop", "if->cond"),
    ),
    Case(
        "a_window_mean_shorter_near_the_end",
        seeded(TrailingMean),
        _signal(6, 1),
        [_signal(2, 2), _signal(3, 5), _signal(40, 4)],
        ({0: torch.export.Dim("n", min=2, max=64)},),
        constructs=("for->scan",),
    ),
    Case(
        "a_tuple_of_numbers_at_a_computed_level_and_a_median_of_a_selection",
        seeded(LevelsWithHysteresis),
        _tremor(12, 3, 1),
        [_tremor(6, 4, 2), _tremor(30, 3, 3, scale=-1.0), _tremor(20, 5, 4)],
        ({0: torch.export.Dim("windows", min=4, max=40), 1: torch.export.Dim("stations", min=2, max=6)},),
        constructs=("for->scan", "if->cond"),
    ),
    Case(
        "a_one_entry_tensor_stored_into_one_position",
        seeded(PartialSale),
        (torch.tensor([3.0, 5.0, 4.0, 6.0]), torch.tensor([9.0])),
        [
            (torch.tensor([3.0, 5.0]), torch.tensor([20.0])),
            (torch.tensor([30.0, 5.0, 1.0]), torch.tensor([7.0])),
        ],
        ({0: torch.export.Dim("lots", min=2, max=16)}, None),
        constructs=("if->cond",),
    ),
    Case(
        "modules_appended_until_a_tensor_break_then_called",
        seeded(StagedUnits),
        (torch.tensor([1.0, 2.5, 1.5]),),
        [(torch.tensor([0.5, 1.0]),), (torch.tensor([4.0, 1.0, 6.5, 2.0]),), (torch.tensor([-1.0, -2.0]),)],
        ({0: torch.export.Dim("n", min=2, max=16)},),
        constructs=("if->cond",),
    ),
    Case(
        "all_and_any_of_flags_set_under_tensor_tests",
        seeded(FillSlots),
        (torch.tensor([0.5, 2.5, 1.5, 3.0, 0.2]),),
        [
            (torch.tensor([-1.0, -2.0]),),
            (torch.tensor([2.5, 2.6, 2.7, 9.0]),),
            (torch.tensor([0.5, -1.0, 0.7]),),
        ],
        ({0: torch.export.Dim("n", min=2, max=16)},),
        constructs=("if->cond",),
    ),
    Case(
        "runs_merged_by_replacing_the_last_pair",
        seeded(MergeCloseRuns),
        (torch.tensor([1.0, 1.0, -1.0, 2.0, -1.0, -1.0, 3.0]),),
        [(torch.tensor([-1.0, -2.0]),), (torch.tensor([1.0, -1.0, 1.0, -1.0, 1.0]),), _signal(30, 6)],
        ({0: torch.export.Dim("n", min=2, max=32)},),
        constructs=("if->cond",),
    ),
    Case(
        "peaks_from_a_shifted_nonzero_made_a_list",
        seeded(MergedPeaks),
        (torch.tensor([0.0, 2.0, 0.0, 3.0, 0.0, 0.0, 0.0, 1.0, 0.0]),),
        [(torch.tensor([1.0, 2.0, 3.0, 4.0]),), _signal(40, 7), _signal(12, 8)],
        ({0: torch.export.Dim("n", min=4, max=48)},),
        constructs=("if->cond",),
    ),
    Case(
        "a_critical_path_over_successors_a_helper_lists",
        seeded(CriticalPath),
        _dag(8, 1),
        [_dag(3, 2), _dag(20, 3)],
        (
            {0: torch.export.Dim("n", min=3, max=32), 1: torch.export.Dim("n", min=3, max=32)},
            {0: torch.export.Dim("n", min=3, max=32)},
        ),
        constructs=("for->while_loop",),
    ),
    Case(
        "a_name_bound_in_one_branch_that_continues_then_bound_again",
        seeded(RenewOrTake),
        (torch.tensor([0.0, 5.0, 0.0, 0.0]), torch.tensor([[5.0, 1.0], [7.0, 2.0], [8.0, 2.0]])),
        [
            (torch.tensor([3.0, 0.0, 0.0]), torch.tensor([[3.0, 0.0], [4.0, 1.0]])),
            (torch.tensor([3.0, 4.0, 0.0]), torch.tensor([[6.0, 0.0], [7.0, 1.0]])),
        ],
        ({0: torch.export.Dim("slots", min=3, max=16)}, {0: torch.export.Dim("asks", min=2, max=8)}),
        constructs=("if->cond",),
    ),
]
