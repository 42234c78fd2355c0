"""Packed-sequence-free GRU over padded batches: loops `int(lengths.max().item())` times and
freezes finished sequences with torch.where. All-zero lengths give a zero-iteration loop."""

import torch
from torch import nn

IN = 12
HID = 20


class MaskedGRU(nn.Module):
    def __init__(self):
        super().__init__()
        self.cell = nn.GRUCell(IN, HID)
        self.cls = nn.Linear(HID, 3)

    def forward(self, x: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
        h = x.new_zeros(x.shape[0], HID)
        steps = int(lengths.max().item())
        for t in range(steps):
            h_new = self.cell(x[:, t], h)
            active = (lengths > t)[:, None]
            h = torch.where(active, h_new, h)
        return self.cls(h)


def model() -> nn.Module:
    torch.manual_seed(0)
    return MaskedGRU().eval()


def example_inputs() -> tuple:
    torch.manual_seed(1)
    return (torch.randn(3, 10, IN), torch.tensor([10, 6, 3]))


def dynamic_shapes():
    b = torch.export.Dim("batch", min=1, max=32)
    return ({0: b, 1: torch.export.Dim("seq", min=1, max=256)}, {0: b})


def verify_inputs() -> list:
    g = torch.Generator().manual_seed(16)
    return [
        (torch.randn(2, 5, IN, generator=g), torch.tensor([0, 0])),  # zero iterations
        (torch.randn(3, 10, IN, generator=g), torch.tensor([4, 10, 1])),  # max < T for some, == T for one
        (torch.randn(1, 40, IN, generator=g), torch.tensor([17])),  # loop shorter than padded T
    ]
