"""A loop over time steps per row that, once a row is parked, pads the row's lists with one value
per step left and stops (``extend([v] * (n - t - 1))`` then `break`): rows of equal length, stacked.
And the rest of a function after an early return: a loop that appends and breaks, then the last
value repeated for the steps left (``last[-1:].expand(rest)``)."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded


class ParkedRows(nn.Module):
    """A decaying penalty per row; a row whose penalty stays high for 3 steps is parked."""

    def forward(self, events):
        n_rows, n_steps = events.shape
        rows = []
        for r in range(n_rows):
            penalty = torch.zeros(())
            high = 0
            values = []
            for t in range(n_steps):
                penalty = 0.5 * penalty + events[r, t]
                if penalty < 0.1:
                    values.append(torch.zeros(()))
                    continue  # quiet: nothing to track
                if penalty > 1.0:
                    high += 1
                values.append(penalty)
                if high >= 3:
                    rest = n_steps - t - 1
                    values.extend([penalty * 2.0] * rest)
                    break
            rows.append(torch.stack(values))
        return torch.stack(rows)


class TripRelay(nn.Module):
    """A relay reads a current per step and trips at the first step over its limit; the readings
    after the trip repeat the last one. A faulted sensor (any reading below zero) reports zeros."""

    def forward(self, amps):
        n = amps.shape[0]
        if (amps < 0.0).any():
            return torch.zeros(n)
        seen = []
        for t in range(n):
            seen.append(amps[t] * 1.5)
            if amps[t] > 10.0:
                break
        kept = torch.stack(seen)
        if kept.shape[0] < n:
            kept = torch.cat([kept, kept[-1:].expand(n - kept.shape[0])])
        return kept


def _events(rows: list[list[float]]) -> tuple:
    return (torch.tensor(rows),)


CASES = [
    Case(
        "lists_padded_for_the_steps_left_then_break",
        seeded(ParkedRows),
        _events([[0.0, 2.0, 2.0, 2.0, 0.0, 0.0], [0.05, 0.0, 0.5, 0.0, 0.0, 0.3]]),
        [
            _events([[2.0, 2.0, 2.0], [0.0, 0.0, 0.0]]),  # parked at the last step: nothing left to pad
            _events([[0.2, 0.0, 3.0, 3.0, 3.0, 0.0, 0.0, 1.0], [1.5, 1.5, 1.5, 1.5, 0.0, 0.0, 0.0, 0.0]]),
            _events([[0.0, 0.0], [0.3, 0.0], [2.0, 0.0]]),
        ],
        ({0: torch.export.Dim("rows", min=2, max=16), 1: torch.export.Dim("steps", min=2, max=32)},),
        constructs=("for->while_loop",),
    ),
    Case(
        "the_last_row_repeated_after_a_breaking_loop_behind_an_early_return",
        seeded(TripRelay),
        (torch.tensor([1.0, 2.0, 12.0, 3.0, 4.0]),),
        [
            (torch.tensor([1.0, -2.0, 3.0]),),  # faulted sensor: the early return
            (torch.tensor([1.0, 2.0, 3.0, 4.0]),),  # never trips
            (torch.tensor([11.0, 2.0]),),  # trips at once
        ],
        ({0: torch.export.Dim("steps", min=2, max=32)},),
    ),
]
