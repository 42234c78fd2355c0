"""Lists a loop grows from a window of the input and reads back by their last entries.

``history = list(x[:w])`` is a new list (passes/row_lists.py carries it as a RowList of its rows);
the loop only appends to it, so it always holds at least its first ``w`` rows and ``history[-w:]``
is the ``w`` rows before the count, gathered at static positions. Reading all ``count`` rows
first (a narrow to a data-dependent size in the loop body) makes torch.onnx's decompositions fail
("possible memo disaster") where the loop sits behind a size test that returns early."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded

W = 6


class TideResiduals(nn.Module):
    """Predicts each sample from the last W accepted ones; a jump too large to be real is left out
    of the history (and of the residuals)."""

    def __init__(self):
        super().__init__()
        self.weights = nn.Parameter(torch.full((W,), 1.0 / W) + 0.01 * torch.rand(W))

    def residuals(self, x):
        residuals = []
        history = list(x[:W])
        for t in range(W, x.shape[0]):
            if (x[t] - history[-1]).abs() > 2.0:
                continue  # a glitch: kept out of the fit
            predicted = (self.weights * torch.stack(history[-W:])).sum()
            residuals.append(x[t] - predicted)
            history.append(x[t])
        return residuals

    def forward(self, x):
        residuals = torch.stack(self.residuals(x))
        return residuals.abs().max(), residuals.mean()


class WarmedUpResiduals(TideResiduals):
    """The same after a warm-up (records too short to predict from give zeros), stopping at the
    second large residual in a row (an event: its sample is reported)."""

    def forward(self, x):
        n = x.shape[0]
        if n < W + 4:
            return torch.zeros(()), torch.zeros(()), torch.tensor(-1)
        residuals = []
        history = list(x[:W])
        run, event_at = 0, -1
        for t in range(W, n):
            if (x[t] - history[-1]).abs() > 2.0:
                continue
            predicted = (self.weights * torch.stack(history[-W:])).sum()
            resid = x[t] - predicted
            residuals.append(resid)
            history.append(x[t])
            if resid.abs() > 1.0:
                run += 1
                if run >= 2:
                    event_at = t
                    break
            else:
                run = 0
        residuals = torch.stack(residuals)
        return residuals.abs().max(), residuals.mean(), torch.tensor(event_at)


def _record(n, glitch_at=(), seed=0, step_at=None, spike_at=None):
    g = torch.Generator().manual_seed(seed)
    x = torch.sin(torch.arange(n, dtype=torch.float32) / 5.0) + 0.05 * torch.randn(n, generator=g)
    if step_at is not None:
        x[step_at:] += 1.5
    if spike_at is not None:
        x[spike_at] += 1.6
    for i in glitch_at:
        x[i] += 5.0
    return (x,)


N = torch.export.Dim("n", min=4, max=64)
LONG = torch.export.Dim("n", min=W + 2, max=64)

CASES = [
    Case(
        "a_list_grown_from_a_window_of_the_input_and_read_by_its_last_entries",
        seeded(TideResiduals),
        _record(30, glitch_at=(12,)),
        [
            _record(W + 2, seed=2),  # two predictions (min size)
            _record(64, glitch_at=(7, 20, 21), seed=3),  # glitches skipped; max size
        ],
        ({0: LONG},),
        constructs=("for->scan", "if->cond"),
    ),
    Case(
        # traced at a short record, as deploy's exporter retries a failed export (other_examples.py):
        # at a long one torch.cond's trace of the loop refuses the appends (dynamo's side effects);
        # there the window's rows are read from the first W (history[-W:] of a list of at least W)
        "a_size_test_returning_early_before_a_loop_that_fills_a_list_of_its_own",
        seeded(WarmedUpResiduals),
        _record(9, seed=1),  # one short of the loop: the early return
        [
            _record(4),  # min size: the early return
            _record(10, seed=2),  # one prediction
            _record(30, glitch_at=(12,)),
            _record(64, glitch_at=(7, 20, 21), seed=3),  # glitches skipped; max size
            _record(40, step_at=25),  # a step: two large residuals in a row stop the loop
            _record(30, spike_at=15),  # one large residual: the run starts and resets
        ],
        ({0: N},),
        constructs=("for->while_loop", "if->where"),
    ),
]
