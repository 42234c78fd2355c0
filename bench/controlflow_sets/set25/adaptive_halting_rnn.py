"""Adaptive Computation Time (Graves, 2016) RNN for sensor-fusion sequences.

For every time step the cell "ponders": it is applied repeatedly, each time
emitting a halting probability, until every sequence in the batch has
accumulated 1 - eps halting mass or max_ponder steps are used.  The state is
the halting-weighted mean of the intermediate states.  Returns the per-step
outputs and the number of ponder steps used at each time step.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class PonderCell(nn.Module):
    def __init__(self, in_dim, hidden):
        super().__init__()
        self.cell = nn.GRUCell(in_dim + 1, hidden)
        self.halt = nn.Linear(hidden, 1)

    def forward(self, x, h, first):
        flag = torch.full((x.shape[0], 1), 1.0 if first else 0.0)
        h = self.cell(torch.cat([x, flag], dim=1), h)
        return h, torch.sigmoid(self.halt(h)).squeeze(-1)


class ACTRNN(nn.Module):
    def __init__(self, in_dim=6, hidden=16, out_dim=4):
        super().__init__()
        self.hidden = hidden
        self.ponder = PonderCell(in_dim, hidden)
        self.readout = nn.Linear(hidden, out_dim)
        self.eps = 0.1
        self.max_ponder = 5
        with torch.no_grad():
            self.ponder.halt.weight.mul_(4.0)
            self.ponder.halt.bias.fill_(1.0)

    def forward(self, x):
        B = x.shape[0]
        h = torch.zeros(B, self.hidden)
        outputs, steps = [], []
        for t in range(x.shape[1]):
            inp = x[:, t]
            halted_mass = torch.zeros(B)
            running = torch.ones(B, dtype=torch.bool)
            state = torch.zeros(B, self.hidden)
            n_steps = 0
            while running.any() and n_steps < self.max_ponder:
                h, p = self.ponder(inp, h, n_steps == 0)
                new_mass = halted_mass + p
                finishing = running & (new_mass > 1.0 - self.eps)
                weight = torch.where(finishing, 1.0 - halted_mass, p)
                weight = torch.where(running, weight, torch.zeros_like(weight))
                state = state + weight.unsqueeze(1) * h
                halted_mass = torch.where(running, torch.where(finishing, torch.ones_like(p), new_mass), halted_mass)
                running = running & ~finishing
                n_steps += 1
            if running.any():
                # ponder budget exhausted: the last state gets the remaining mass
                state = state + ((1.0 - halted_mass) * running.float()).unsqueeze(1) * h
            h = state
            outputs.append(self.readout(h))
            steps.append(n_steps)
        return torch.stack(outputs, dim=1), torch.tensor(steps)


def model():
    torch.manual_seed(0)
    return ACTRNN().eval()


def _make(seed, b, T, scale=1.0, shift=0.0):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(b, T, 6, generator=g) * scale + shift,)


def example_inputs():
    return _make(0, 2, 5)


def dynamic_shapes():
    return ({0: Dim("batch", min=2, max=8), 1: Dim("time", min=2, max=32)},)


def verify_inputs():
    return [
        _make(0, 2, 3, scale=0.5, shift=2.0),    # confident steps: a single ponder step
        _make(0, 3, 5, scale=3.0, shift=-6.0),   # hard steps: ponder budget exhausted
        _make(2, 3, 5, scale=1.0, shift=4.0),
        _make(1, 3, 5, scale=1.0, shift=-4.0),
        _make(5, 4, 9),
    ]
