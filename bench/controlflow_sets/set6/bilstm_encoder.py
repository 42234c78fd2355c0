"""Hand-written bidirectional LSTM encoder over a dynamic sequence length: a forward loop over
range(T) and a backward loop over range(T - 1, -1, -1), each appending states to a list."""

import torch
from torch import nn

IN = 20
HID = 24


class BiLSTMEncoder(nn.Module):
    def __init__(self, concat: bool = True):
        super().__init__()
        self.fwd = nn.LSTMCell(IN, HID)
        self.bwd = nn.LSTMCell(IN, HID)
        self.concat = concat

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        batch, steps = x.shape[0], x.shape[1]
        h = c = x.new_zeros(batch, HID)
        fwd_out = []
        for t in range(steps):
            h, c = self.fwd(x[:, t], (h, c))
            fwd_out.append(h)
        h = c = x.new_zeros(batch, HID)
        bwd_out = []
        for t in range(steps - 1, -1, -1):
            h, c = self.bwd(x[:, t], (h, c))
            bwd_out.append(h)
        bwd_out.reverse()
        f = torch.stack(fwd_out, dim=1)
        b = torch.stack(bwd_out, dim=1)
        if self.concat:
            return torch.cat([f, b], dim=-1)
        return f + b


def model() -> nn.Module:
    torch.manual_seed(0)
    return BiLSTMEncoder().eval()


def example_inputs() -> tuple:
    torch.manual_seed(1)
    return (torch.randn(2, 7, IN),)


def dynamic_shapes():
    return ({1: torch.export.Dim("seq", min=1, max=128)},)


def verify_inputs() -> list:
    g = torch.Generator().manual_seed(5)
    return [
        (torch.randn(2, 1, IN, generator=g),),
        (torch.randn(2, 7, IN, generator=g),),
        (torch.randn(2, 33, IN, generator=g),),
    ]
