"""Ten-pin bowling scorer + bowler-form model for a lane-management system.

The lane machine writes knocked-down pin counts into a fixed buffer, padding
balls that have not been rolled yet with -1. The scorer walks the buffer frame
by frame (strikes take one ball, other frames two; strike and spare bonuses
look ahead), stopping at frame 10, at the first un-rolled ball, or at a
corrupted frame (more than 10 pins). A small network turns the strike/spare/
open statistics into a predicted game average for the bowler.

Kind X. Constructs: 1 (if on tensor values inside helpers), 2 (early returns
in helper branches), 3 (`and` in the while condition mixing Python ints and a
tensor predicate), 4 (while with a tensor condition and loop-carried state),
6 (break on a corrupted frame), 7 (helper function with several returns called
from the loop). Data-dependent number of frames; Python lists of tensors.
"""
import torch
import torch.nn as nn

STRIKE, SPARE, OPEN, INCOMPLETE = 0, 1, 2, 3


def rolled(rolls, j):
    """Pins of ball j, or 0 if that ball has not been rolled (yet)."""
    if j < rolls.shape[0]:
        return rolls[j].clamp(min=0)
    return torch.zeros((), dtype=rolls.dtype)


def score_frame(rolls, i):
    """Returns (frame score, balls used, frame kind) for the frame starting at ball i."""
    first = rolls[i]
    if first == 10:
        return 10 + rolled(rolls, i + 1) + rolled(rolls, i + 2), 1, STRIKE
    if i + 1 >= rolls.shape[0] or rolls[i + 1] < 0:
        return first, 1, INCOMPLETE
    second = rolls[i + 1]
    if first + second == 10:
        return 10 + rolled(rolls, i + 2), 2, SPARE
    return first + second, 2, OPEN


class BowlingScorer(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.form = nn.Sequential(nn.Linear(4, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, rolls):
        # rolls: (R,) int64 pins per ball, -1 = not rolled yet
        n = rolls.shape[0]
        i, frame = 0, 0
        running = torch.zeros((), dtype=rolls.dtype)
        cumulative, kinds = [], []
        while frame < 10 and i < n and rolls[i] >= 0:
            score, used, kind = score_frame(rolls, i)
            if kind != STRIKE and kind != INCOMPLETE and rolls[i] + rolls[i + 1] > 10:
                break  # sensor glitch: frame is corrupt, stop scoring here
            running = running + score
            cumulative.append(running)
            kinds.append(kind)
            i += used
            frame += 1

        if len(cumulative) == 0:
            return torch.zeros(0, dtype=rolls.dtype), torch.zeros(1)
        frames = torch.stack(cumulative)
        k = torch.tensor(kinds)
        counted = float(len(kinds))
        stats = torch.stack([(k == STRIKE).sum() / counted, (k == SPARE).sum() / counted,
                             (k == OPEN).sum() / counted, frames[-1].float() / (30.0 * counted)])
        average = 300.0 * torch.sigmoid(self.form(stats))
        return frames, average


def model():
    torch.manual_seed(3411)
    return BowlingScorer().eval()


def example_inputs():
    # complete game: strikes, spares, open frames; 10th frame strike + 2 bonus balls, trailing balls ignored
    return (torch.tensor([10, 7, 3, 9, 0, 10, 0, 8, 8, 2, 0, 6, 10, 10, 10, 8, 1, 2, 8, 7]),)


def dynamic_shapes():
    R = torch.export.Dim("balls", min=2, max=24)
    return ({0: R},)


def verify_inputs():
    return [
        # full game with strikes, spares and open frames; stops after frame 10
        example_inputs(),
        # perfect game: 12 strikes, bonuses complete; extra buffer beyond frame 10 ignored
        (torch.tensor([10] * 12 + [-1, -1]),),
        # game in progress: strike whose bonus balls are not rolled yet, then padding stops the loop
        (torch.tensor([7, 2, 10, -1, -1, -1]),),
        # spare in progress (bonus not rolled yet -> rolled() past the buffer end)
        (torch.tensor([3, 4, 6, 4]),),
        # incomplete frame: first ball rolled, second still -1
        (torch.tensor([9, 0, 5, -1]),),
        # corrupted second frame (7 + 6 pins) -> break after one frame
        (torch.tensor([1, 2, 7, 6, 3, 3]),),
        # nothing rolled yet -> loop runs 0 times, early return
        (torch.tensor([-1, -1, -1]),),
        # buffer ends right after a single first ball (i + 1 >= n)
        (torch.tensor([4, 5, 8]),),
    ]
