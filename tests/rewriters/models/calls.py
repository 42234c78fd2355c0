"""Control flow inside helpers, methods and submodule forwards (call-tree conversion), and plain
Python control flow (config flags, self.training, ModuleList loops) that must stay Python."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded


def soft_clip(x, limit: float = 2.0):
    if x.abs().max() > limit:
        return torch.tanh(x / limit) * limit
    return x


class HelperUser(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        return soft_clip(self.fc(x)) + 1


class Expert(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.fc = nn.Linear(width, width)

    def forward(self, x):
        h = self.fc(x)
        if h.mean() < 0:
            h = -h
        return h


class ExpertStack(nn.Module):
    """A ModuleList loop (plain Python) over submodules whose forward branches on tensors."""

    def __init__(self):
        super().__init__()
        self.experts = nn.ModuleList(Expert(6) for _ in range(3))

    def forward(self, x):
        for expert in self.experts:
            x = expert(x) * 0.5
        return x


class MethodGate(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 3)

    def _gate(self, h):
        if h.sum() > 0:
            h = h * torch.sigmoid(h)
        else:
            h = h.abs()
        return h

    def forward(self, x):
        return self._gate(self.fc(x))


class Configurable(nn.Module):
    """Config flags, self.training, static sizes: plain Python; one tensor `if` converts."""

    def __init__(self, residual=True, depth=2):
        super().__init__()
        self.residual = residual
        self.layers = nn.ModuleList(nn.Linear(8, 8) for _ in range(depth))
        self.drop = nn.Dropout(0.5)

    def forward(self, x):
        for layer in self.layers:
            y = torch.relu(layer(x))
            if self.training:
                y = self.drop(y)
            x = x + y if self.residual else y
        if x.shape[-1] == 8:
            x = x * 1.0
        if x.sum() > 0:
            x = x / 2
        return x


class DecoratedForward(nn.Module):
    """A decorated forward and a staticmethod helper, both with tensor branches."""

    @staticmethod
    def _act(v):
        if v.max() > 1:
            return v.relu()
        return v.sigmoid()

    @torch.no_grad()
    def forward(self, x):
        if x.sum() > 0:
            return self._act(x) * 2
        return x - 1


CASES = [
    Case(
        "helper_function",
        seeded(HelperUser),
        (torch.randn(2, 4),),
        [(torch.randn(2, 4) * 10,), (torch.randn(2, 4) * 0.01,)],
        constructs=("if->cond",),
    ),
    Case(
        "submodule_forward",
        seeded(ExpertStack),
        (torch.randn(2, 6),),
        [(torch.randn(2, 6) * 3,), (-torch.randn(2, 6) * 3,)],
        constructs=("if->cond",),
    ),
    Case(
        "method_helper",
        seeded(MethodGate),
        (torch.randn(4, 3),),
        [(torch.randn(4, 3) * 5,), (-torch.randn(4, 3) * 5,)],
        constructs=("if->cond",),
    ),
    Case(
        "config_flags_stay_python",
        seeded(Configurable),
        (torch.randn(2, 8),),
        [(torch.full((2, 8), 2.0),), (torch.full((2, 8), -2.0),)],
        constructs=("if->cond",),
    ),
    Case(
        "decorated_forward_staticmethod",
        seeded(DecoratedForward),
        (torch.randn(3),),
        [(torch.ones(3),), (-torch.ones(3),), (torch.tensor([2.0, -0.5, -0.5]),)],
        constructs=("if->cond",),
    ),
]
