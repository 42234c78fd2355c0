"""Comprehensions ``[f(c) for c in xs]`` over a tensor whose length is dynamic or known only when the
model runs (list_builtins.mapped_entries: a scan of ``f`` over the rows):

- the readings of the prefix a loop accepted, projected one by one and pooled;
- every row of a dynamic batch through a small cell, summed;
- the autocorrelation of a signal at every lag in ``range(1, n // 2)`` (a range of a dynamic size);
- the intervals between beats a loop detected, ``zip(beats[:-1], beats[1:])``, after an early return
  when fewer than two were found;
- the first few positions of a nonzero (``[idx[i] for i in range(min(len(idx), 6))]``, maybe none)
  under a branch on the input's size, each compared with the next by a helper reading windows
  ``x[a : a + width]`` of a width the branch picked.
"""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded


class AcceptedPrefixPool(nn.Module):
    """Readings are accepted while they stay above a floor; the accepted ones are projected one at
    a time and averaged, or a zero vector when none was accepted."""

    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(3, 5)

    def forward(self, readings):
        accepted = 0
        for i in range(readings.shape[0]):
            if readings[i].min() < 0.0:
                break
            accepted = i + 1
        if accepted > 0:
            pooled = torch.stack([torch.relu(self.proj(r)) for r in readings[:accepted]]).mean(dim=0)
        else:
            pooled = torch.zeros(5)
        return torch.tensor(accepted), pooled


class RowCells(nn.Module):
    """Each row of the batch through a gated cell, the results summed over the batch."""

    def __init__(self):
        super().__init__()
        self.cell = nn.Linear(4, 4)

    def forward(self, x):
        return torch.stack([torch.tanh(self.cell(row)) * row.sum() for row in x]).sum(dim=0)


class LagCorrelations(nn.Module):
    """The mean product of the centred signal with itself shifted by each lag up to half its length;
    the first lag where it turns negative."""

    def forward(self, x):
        c = x - x.mean()
        n = x.shape[0]
        acf = torch.stack([(c[:-k] * c[k:]).mean() for k in range(1, n // 2)])
        return acf, (acf < 0).int().argmax()


class BeatIntervals(nn.Module):
    """Beats are the samples above a threshold that follow a lower one, at least three samples after
    the previous beat; their intervals, in samples, give the rate and its variability."""

    def forward(self, ecg):
        beats = []
        for i in range(1, ecg.shape[0]):
            if ecg[i] > 0.5 and ecg[i - 1] <= 0.5:
                if beats and i - beats[-1] < 3:
                    continue
                beats.append(i)
        if len(beats) < 2:
            return torch.zeros(2)
        gaps = torch.stack([torch.tensor(float(b - a)) for a, b in zip(beats[:-1], beats[1:])])
        return torch.stack([gaps.mean(), gaps.max() - gaps.min()])


def _ecg(n: int, every: int, seed: int) -> tuple:
    g = torch.Generator().manual_seed(seed)
    signal = 0.3 * torch.rand(n, generator=g)
    signal[::every] = 0.9 + 0.1 * torch.rand(signal[::every].shape, generator=g)
    return (signal,)


def _readings(rows: int, bad_at: int | None, seed: int) -> tuple:
    values = torch.rand(rows, 3, generator=torch.Generator().manual_seed(seed)) + 0.1
    if bad_at is not None:
        values[bad_at, 1] = -1.0
    return (values,)


class OnsetMatcher(nn.Module):
    """Onsets (rises through 0.5) of a signal: the first few, each window after one compared with the
    window after the next; the best match, or -1 when there are fewer than two."""

    def onsets(self, x):
        idx = torch.nonzero((x[:-1] < 0.5) & (x[1:] >= 0.5)).squeeze(1) + 1
        n = min(int(idx.shape[0]), 6)
        return [idx[i] for i in range(n)]

    def match(self, x, a, b, width):
        return -(x[a : a + width] - x[b : b + width]).abs().sum()

    def forward(self, x):
        width = 8 if x.shape[0] > 48 else 4
        starts = self.onsets(x[: x.shape[0] - width])
        if len(starts) < 2:
            return torch.tensor(-1), torch.zeros(())
        best, at = torch.tensor(-1e9), torch.tensor(-1)
        for k in range(len(starts) - 1):
            score = self.match(x, int(starts[k]), int(starts[k + 1]), width)
            if score > best:
                best, at = score, starts[k]
        return at, best


def _pulses(n, positions):
    x = torch.zeros(n)
    for p in positions:
        x[p : p + 3] = torch.tensor([1.0, 0.8, 0.6])[: n - p]
    return (x,)


CASES = [
    Case(
        "comprehension_over_the_prefix_a_loop_accepted",
        seeded(AcceptedPrefixPool),
        _readings(6, 4, 1),
        [_readings(5, 0, 2), _readings(9, None, 3), _readings(2, 1, 4)],
        ({0: torch.export.Dim("n", min=2, max=32)},),
        constructs=("if->cond",),
    ),
    Case(
        "comprehension_over_the_rows_of_a_dynamic_batch",
        seeded(RowCells),
        (torch.randn(3, 4),),
        [(torch.randn(1, 4),), (torch.randn(12, 4),)],
        ({0: torch.export.Dim("batch", min=1, max=16)},),
    ),
    Case(
        "comprehension_over_zip_of_a_loop_filled_list_and_its_shifted_copy",
        seeded(BeatIntervals),
        _ecg(40, 7, 1),
        [
            (torch.tensor([0.1, 0.9, 0.2]),),
            _ecg(64, 5, 2),
            (torch.tensor([0.9, 0.1, 0.9, 0.1, 0.9, 0.6]),),
            _ecg(9, 3, 3),
        ],
        ({0: torch.export.Dim("n", min=3, max=64)},),
        constructs=("if->cond",),
    ),
    Case(
        "comprehension_over_a_range_of_a_dynamic_size",
        seeded(LagCorrelations),
        (torch.sin(torch.arange(24.0) / 2.0),),
        [(torch.sin(torch.arange(8.0)),), (torch.cos(torch.arange(61.0) / 5.0),)],
        ({0: torch.export.Dim("n", min=8, max=64)},),
    ),
    Case(
        "the_first_positions_of_a_nonzero_compared_by_windows_of_a_width_a_size_branch_picked",
        seeded(OnsetMatcher),
        _pulses(40, [3, 11, 20, 30]),
        [_pulses(24, []), _pulses(24, [5]), _pulses(64, [2, 9, 17, 25, 33, 41, 49]), _pulses(16, [1, 6])],
        ({0: torch.export.Dim("n", min=16, max=96)},),
    ),
]
