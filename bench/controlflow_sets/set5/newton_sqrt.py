"""Newton iterations for an elementwise sqrt, in a helper: while .any() with a safety break."""

import torch
from torch import nn


def newton_sqrt(a, tol=1e-5, max_iter=20):
    x = torch.where(a > 1, a, torch.ones_like(a))
    i = 0
    while ((x * x - a).abs() > tol * a.clamp(min=1.0)).any():
        x = 0.5 * (x + a / x)
        i += 1
        if i >= max_iter:
            break
    return x


class StdNorm(nn.Module):
    def forward(self, x):
        var = x.var(-1, keepdim=True) + 1e-5
        return (x - x.mean(-1, keepdim=True)) / newton_sqrt(var)


def model():
    return StdNorm()


def example_inputs():
    torch.manual_seed(12)
    return (torch.randn(4, 6) * 3,)


def dynamic_shapes():
    return ({0: torch.export.Dim("b", min=2, max=64)},)


def verify_inputs():
    return [(torch.randn(5, 6) * 1e6,), (torch.ones(2, 6),), (torch.randn(3, 6) * 1e-2,)]
