"""Loops over a tensor's slices (`for x_t in x.unbind(1)`): a loop over the dim's size."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded

STEPS = torch.export.Dim("steps", min=2, max=32)


class UnbindGRU(nn.Module):
    """`enumerate(x.unbind(1))` with appends and `torch.unbind(x, -2)` over a dynamic length."""

    def __init__(self):
        super().__init__()
        self.cell = nn.GRUCell(3, 5)
        self.out = nn.Linear(5, 2)

    def forward(self, x):
        h = torch.zeros(x.shape[0], 5)
        outs = []
        for t, x_t in enumerate(x.unbind(1)):
            h = self.cell(x_t * (1.0 + 0.1 * t), h)
            outs.append(self.out(h))
        total = h
        for x_t in torch.unbind(x, -2):
            total = total + x_t.sum(-1, keepdim=True)
        return torch.stack(outs, 1), total


class UnbindStaticChannels(nn.Module):
    """A loop over static channels stays plain Python (no graph loop)."""

    def forward(self, x):
        y = torch.zeros_like(x[:, 0])
        for c in x.unbind(dim=1):
            y = y * 0.5 + c
        return y


CASES = [
    Case(
        "unbind_loops_over_dynamic_length",
        seeded(UnbindGRU),
        (torch.randn(2, 6, 3),),
        [(torch.randn(2, 2, 3),), (torch.randn(2, 17, 3),)],
        ({1: STEPS},),
        constructs=("for->scan", "for->while_loop"),
    ),
    Case(
        "unbind_static_channels_stay_python",
        seeded(UnbindStaticChannels),
        (torch.randn(2, 4, 5),),
        [(torch.randn(3, 4, 5),)],
        ({0: torch.export.Dim("batch", min=2, max=8)},),
    ),
]
