"""Adaptive computation time (Graves 2016): ponder a recurrent cell until every sample's
cumulative halting probability reaches 1 - eps, or a step budget runs out.

while with `and` of a tensor all()-based predicate and a Python counter, per-sample masks,
remainders, ponder cost.
"""

import torch
from torch import nn


class ACTCell(nn.Module):
    def __init__(self, d_in=8, d=24, max_steps=10, eps=0.01):
        super().__init__()
        self.cell = nn.GRUCell(d_in + 1, d)
        self.halt = nn.Linear(d, 1)
        self.gain = nn.Linear(d_in, 1)
        self.d = d
        self.max_steps = max_steps
        self.eps = eps

    def forward(self, x):
        b = x.shape[0]
        h = torch.zeros(b, self.d)
        cum = torch.zeros(b)
        remainders = torch.zeros(b)
        acc = torch.zeros(b, self.d)
        n = 0
        while not bool((cum >= 1 - self.eps).all()) and n < self.max_steps:
            flag = torch.full((b, 1), 1.0 if n == 0 else 0.0)
            h = self.cell(torch.cat([x, flag], dim=-1), h)
            p = torch.sigmoid(self.halt(h).squeeze(-1) + self.gain(x).squeeze(-1))
            running = cum < 1 - self.eps
            halting = running & (cum + p >= 1 - self.eps)
            w = torch.where(halting, 1 - cum, torch.where(running, p, torch.zeros_like(p)))
            remainders = remainders + torch.where(halting, 1 - cum, torch.zeros_like(p))
            cum = cum + w
            acc = acc + w.unsqueeze(-1) * h
            n += 1
        return acc, remainders + n


def model():
    torch.manual_seed(0)
    return ACTCell().eval()


def example_inputs():
    torch.manual_seed(1)
    return (torch.randn(4, 8),)


def dynamic_shapes():
    return ({0: torch.export.Dim("batch", min=1, max=64)},)


def verify_inputs():
    m = model()
    g = m.gain.weight.detach()[0]
    up = g / g.norm() * 40.0  # gain logit ~ +40: halts in one step
    return [
        (up.expand(3, 8).clone(),),  # halts at step 1
        ((-up).expand(2, 8).clone(),),  # never halts: step budget
        (torch.stack([up * 0.02, up * 0.05, -up * 0.02, up * 0.0]),),  # mixed: a few steps
    ]
