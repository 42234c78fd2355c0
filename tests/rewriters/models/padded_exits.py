"""A `return` inside a loop over a ModuleList, after a `while` that pads the list the loop fills to
its full length (`while len(counts) < len(self.gates) + 1: counts.append(zero)`): the padding moves
after the loop with the `return` (passes/loop_exits.py), so the branch it ran in no longer leaves
the list longer than the other path does."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded


class Gate(nn.Module):
    def __init__(self, channel: int, threshold: float):
        super().__init__()
        self.channel, self.threshold = channel, threshold

    def forward(self, pop):
        return pop[:, self.channel] > self.threshold


class GateCounts(nn.Module):
    def __init__(self, min_events: int = 3):
        super().__init__()
        self.gates = nn.ModuleList([Gate(0, 0.0), Gate(1, -0.5), Gate(2, 0.5)])
        self.min_events = min_events

    def forward(self, events):
        pop = events
        counts = [torch.tensor(float(events.shape[0]))]
        for gate in self.gates:
            pop = pop[gate(pop)]
            counts.append(torch.tensor(float(pop.shape[0])))
            if pop.shape[0] < self.min_events:
                while len(counts) < len(self.gates) + 1:
                    counts.append(torch.zeros(()))
                return torch.stack(counts), torch.zeros(3)
        return torch.stack(counts), pop.mean(0)


def _events(n: int, shift: float, seed: int) -> tuple:
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(n, 3, generator=g) + shift,)


CASES = [
    Case(
        "a_list_padded_by_a_while_before_a_return_in_a_modulelist_loop",
        seeded(GateCounts),
        _events(24, 0.3, 1),
        [
            _events(24, 0.3, 1),  # passes gates in turn
            _events(40, 2.0, 2),  # every gate keeps enough: the return after the loop
            _events(6, -2.0, 3),  # too few after the first gate: padded with two zeros
            _events(10, -0.5, 5),  # too few after the second gate: padded with one zero
            _events(12, 0.0, 4),  # too few after the last gate: nothing to pad
        ],
        ({0: torch.export.Dim("events", min=4, max=64)},),
        constructs=("if->cond",),
    ),
]
