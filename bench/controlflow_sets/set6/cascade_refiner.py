"""Control flow spread over helpers: a module-level helper with an if/elif/else chain that returns
from each branch, a submodule whose forward has its own tensor `if`, and a method with a `while`,
all called from the top forward."""

import torch
from torch import nn

DIM = 16


def soft_clip(x: torch.Tensor, limit: float) -> torch.Tensor:
    peak = x.abs().max()
    if peak <= limit:
        return x
    elif peak <= 4 * limit:
        return limit * torch.tanh(x / limit)
    else:
        return x * (limit / peak)


class Gate(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(DIM, DIM)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        g = torch.sigmoid(self.fc(x))
        if g.mean() > 0.5:
            out = x * g
        else:
            out = x * (1 - g)
        return out


class Cascade(nn.Module):
    def __init__(self):
        super().__init__()
        self.inp = nn.Linear(DIM, DIM)
        self.gate = Gate()
        self.outp = nn.Linear(DIM, DIM)

    def halve_until_small(self, x: torch.Tensor) -> torch.Tensor:
        while x.norm() > 10.0:
            x = x * 0.5
        return x

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = soft_clip(self.inp(x), 2.0)
        h = self.gate(h)
        h = self.halve_until_small(h + x)
        return soft_clip(self.outp(h), 1.0)


def model() -> nn.Module:
    torch.manual_seed(0)
    return Cascade().eval()


def example_inputs() -> tuple:
    torch.manual_seed(1)
    return (torch.randn(2, DIM),)


def dynamic_shapes():
    return ({0: torch.export.Dim("batch", min=1, max=32)},)


def verify_inputs() -> list:
    g = torch.Generator().manual_seed(14)
    return [
        (torch.randn(2, DIM, generator=g) * 0.01,),
        (torch.randn(3, DIM, generator=g) * 2.0,),
        (torch.randn(1, DIM, generator=g) * 50.0,),
        (-torch.randn(4, DIM, generator=g) * 5.0,),
    ]
