"""Neural-ODE style integrator with adaptive step size: while t < t_end, if/else on the error."""

import torch
from torch import nn


class ODEFunc(nn.Module):
    def __init__(self, d=6):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d, 16), nn.Tanh(), nn.Linear(16, d))

    def forward(self, y):
        return self.net(y)


class AdaptiveODE(nn.Module):
    def __init__(self):
        super().__init__()
        self.f = ODEFunc()
        self.tol = 1e-2

    def forward(self, y, t_end):
        t = torch.zeros(())
        dt = torch.full((), 0.25)
        steps = torch.zeros((), dtype=torch.long)
        while t < t_end:
            k1 = self.f(y)
            k2 = self.f(y + dt * k1)
            err = (dt * (k2 - k1)).abs().max()
            if err > self.tol:
                dt = (dt * 0.5).clamp(min=0.01)
                y = y + dt * k1
            else:
                y = y + 0.5 * dt * (k1 + k2)
                dt = (dt * 1.5).clamp(max=0.5)
            t = t + dt
            steps = steps + 1
        return y, steps


def model():
    torch.manual_seed(0)
    return AdaptiveODE()


def example_inputs():
    torch.manual_seed(14)
    return (torch.randn(3, 6), torch.tensor(1.0))


def dynamic_shapes():
    return ({0: torch.export.Dim("b", min=2, max=64)}, None)


def verify_inputs():
    return [
        (torch.randn(5, 6) * 10, torch.tensor(2.0)),
        (torch.randn(2, 6), torch.tensor(-1.0)),
        (torch.randn(4, 6) * 0.01, torch.tensor(0.3)),
    ]
