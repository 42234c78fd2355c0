"""P300 row/column speller with dynamic stopping: accumulate classifier
evidence over flash repetitions, reject repetitions with blink artifacts and
stop as soon as both the row and column posteriors are confident.

Kind X. Constructs: 1, 2, 5, 6, 7.
"""
import torch
import torch.nn as nn
from torch.export import Dim

N_ROWS = 6
N_COLS = 6


class P300Scorer(nn.Module):
    """Spatial filter + template match + small learned correction, per flash."""

    def __init__(self, channels=8, samples=64):
        super().__init__()
        self.spatial = nn.Linear(channels, 1, bias=False)
        nn.init.uniform_(self.spatial.weight, 0.05, 0.25)  # P300 is positive on every channel
        t = torch.arange(samples, dtype=torch.float32)
        template = torch.exp(-0.5 * ((t - 38) / 5.0) ** 2)  # ~300 ms at 128 Hz
        self.register_buffer("template", template / template.norm())
        self.correction = nn.Linear(samples, 1)
        with torch.no_grad():
            self.correction.weight.mul_(0.05)

    def forward(self, epoch):
        # epoch: [12, C, S] one repetition (6 row flashes then 6 column flashes)
        virtual = self.spatial(epoch.transpose(1, 2)).squeeze(-1)  # [12, S]
        return virtual @ self.template + 0.1 * self.correction(virtual).squeeze(-1)


def posteriors(evidence, temperature):
    row = torch.softmax(evidence[:N_ROWS] / temperature, dim=0)
    col = torch.softmax(evidence[N_ROWS:] / temperature, dim=0)
    return row, col


def should_stop(row, col, level):
    if row.max() < level:
        return False  # row still ambiguous, no need to look at the columns
    return bool(col.max() > level)


class DynamicStoppingSpeller(nn.Module):
    def __init__(self, confidence=0.95, artifact_uv=80.0, temperature=6.0):
        super().__init__()
        self.scorer = P300Scorer()
        self.confidence = confidence
        self.artifact_uv = artifact_uv
        self.temperature = temperature

    def forward(self, epochs):
        # epochs: [R, 12, C, S] microvolts, R flash repetitions recorded so far
        evidence = torch.zeros(N_ROWS + N_COLS)
        used = torch.zeros(())
        row = torch.full((N_ROWS,), 1.0 / N_ROWS)
        col = torch.full((N_COLS,), 1.0 / N_COLS)
        for r in range(epochs.shape[0]):
            ep = epochs[r]
            if ep.abs().amax() > self.artifact_uv:
                continue  # eye blink: discard this repetition
            evidence = evidence + self.scorer(ep)
            used = used + 1
            row, col = posteriors(evidence, self.temperature)
            if should_stop(row, col, self.confidence):
                break
        if used == 0:
            return torch.zeros(N_ROWS * N_COLS), used
        grid = row.unsqueeze(1) * col.unsqueeze(0)
        return grid.flatten(), used


def model():
    torch.manual_seed(10)
    return DynamicStoppingSpeller().eval()


def _session(reps, target_row, target_col, p300_uv, blink_reps=(), seed=0):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(64, dtype=torch.float32)
    bump = torch.exp(-0.5 * ((t - 38) / 5.0) ** 2)
    x = 3.0 * torch.randn(reps, 12, 8, 64, generator=g)
    x[:, target_row] += p300_uv * bump
    x[:, N_ROWS + target_col] += p300_uv * bump
    for r in blink_reps:
        x[r, :, 0:2, 10:30] += 150.0
    return x


def example_inputs():
    return (_session(5, 2, 4, 3.0, seed=0),)


def dynamic_shapes():
    return ({0: Dim("reps", min=2, max=15)},)


def verify_inputs():
    return [
        example_inputs(),  # moderate P300: confident at rep 2 of 5 -> break before the end
        (_session(6, 0, 0, 0.6, seed=1),),  # weak P300: never confident, loop runs all 6 reps (no break)
        (_session(6, 5, 1, 2.5, blink_reps=(0, 2), seed=2),),  # blinks on reps 0 and 2 -> continue; confident at rep 4 -> break
        (_session(3, 3, 3, 6.0, blink_reps=(0, 1, 2), seed=3),),  # every rep blinked -> used == 0 early return
        (_session(15, 1, 2, 0.3, seed=4),),  # max reps, barely any evidence: no break
        (_session(2, 4, 5, 40.0, seed=5),),  # min reps, huge P300: confident after first rep -> break
    ]
