"""Control flow inside a module-level helper and inside a submodule forward."""

import torch
from torch import nn


def safe_normalize(x, eps=1e-3):
    n = x.norm()
    if n < eps:
        return x
    return x / n


def soft_clip(x, limit):
    if x.abs().max() > limit:
        x = torch.tanh(x / limit) * limit
    return x


class Gate(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.fc = nn.Linear(d, 1)

    def forward(self, x):
        g = torch.sigmoid(self.fc(x)).mean()
        if g > 0.7:
            return x * 2.0
        elif g < 0.3:
            out = x * 0.5
        else:
            out = x
        return out


class Net(nn.Module):
    def __init__(self, d=10):
        super().__init__()
        self.gate = Gate(d)
        self.lin = nn.Linear(d, d)
        self.scale = 20.0

    def forward(self, x):
        x = safe_normalize(x) * self.scale
        x = self.gate(x) + self.lin(x)
        return soft_clip(x, 3.0)


def model():
    torch.manual_seed(0)
    return Net()


def example_inputs():
    torch.manual_seed(9)
    return (torch.randn(3, 10),)


def verify_inputs():
    m = model()
    w = m.gate.fc.weight.detach()[0]
    return [
        (torch.zeros(3, 10),),
        (w.repeat(3, 1) * 1000,),
        (-w.repeat(3, 1) * 1000,),
        (torch.randn(3, 10) * 1e-3,),
    ]
