"""Calibrate a softmax temperature by bisection so the prediction entropy matches a target.

while on a tensor interval width, if/else inside the loop choosing which end to move,
early break when the entropy is within eps, and a helper with its own control flow.
"""

import torch
from torch import nn


def entropy(logits, temp):
    p = torch.softmax(logits / temp, dim=-1)
    return -(p * torch.log(p + 1e-12)).sum(dim=-1).mean()


class CalibratedHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 10)
        self.lo, self.hi = 0.05, 20.0

    def solve(self, logits, target, tol):
        lo = torch.tensor(self.lo)
        hi = torch.tensor(self.hi)
        mid = (lo + hi) / 2
        while hi - lo > tol:
            mid = (lo + hi) / 2
            e = entropy(logits, mid)
            if (e - target).abs() < 1e-6:
                break
            if e > target:
                hi = mid
            else:
                lo = mid
        return mid

    def forward(self, x, target, tol):
        logits = self.fc(x)
        t = self.solve(logits, target, tol)
        return torch.softmax(logits / t, dim=-1), t


def model():
    torch.manual_seed(0)
    return CalibratedHead().eval()


def example_inputs():
    torch.manual_seed(1)
    return (torch.randn(8, 16), torch.tensor(1.2), torch.tensor(1e-3))


def dynamic_shapes():
    return ({0: torch.export.Dim("batch", min=1, max=128)}, None, None)


def verify_inputs():
    torch.manual_seed(11)
    x = torch.randn(8, 16)
    m = model()
    with torch.no_grad():
        first_mid = torch.tensor((m.lo + m.hi) / 2)
        exact = entropy(m.fc(x), first_mid)
    return [
        (x, torch.tensor(1.5), torch.tensor(1e-4)),  # both branches, ends on width
        (x, exact, torch.tensor(1e-4)),  # first midpoint hits the target: break
        (torch.randn(3, 16), torch.tensor(1.0), torch.tensor(100.0)),  # width <= tol: zero iterations
    ]
