"""Neural-ODE latent dynamics integrated with an adaptive Bogacki-Shampine (RK23) solver.

Used for irregularly sampled sensor streams (wearables): the latent state is evolved
from t=0 to a runtime `t_end`. Steps whose embedded error estimate exceeds the
tolerance are rejected (`continue` with a smaller step), a step budget stops
integration early (`break`), and t_end = 0 runs zero iterations.
Outputs: final latent state (1, 8), reached time (1,), accepted steps (1,), rejected steps (1,).
"""

import torch
import torch.nn as nn


class ODEFunc(nn.Module):
    def __init__(self, dim=8):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim + 1, 32), nn.Tanh(), nn.Linear(32, dim))

    def forward(self, t, y):
        return self.net(torch.cat([y, t.view(1, 1).expand(y.shape[0], 1)], 1))


class AdaptiveODE(nn.Module):
    def __init__(self, rtol=1e-3, h0=0.1, max_steps=20):
        super().__init__()
        self.f = ODEFunc()
        self.rtol = rtol
        self.h0 = h0
        self.max_steps = max_steps

    def bs23_step(self, t, y, h):
        k1 = self.f(t, y)
        k2 = self.f(t + 0.5 * h, y + 0.5 * h * k1)
        k3 = self.f(t + 0.75 * h, y + 0.75 * h * k2)
        y_new = y + h * (2 * k1 + 3 * k2 + 4 * k3) / 9
        k4 = self.f(t + h, y_new)
        err = h * (-5 * k1 / 72 + k2 / 12 + k3 / 9 - k4 / 8)
        scale = self.rtol * (1.0 + torch.maximum(y.abs(), y_new.abs()))
        return y_new, (err / scale).pow(2).mean().sqrt()

    def forward(self, y0, t_end):
        t = torch.zeros(1)
        y = y0
        h = torch.full((1,), self.h0)
        accepted = torch.zeros(1, dtype=torch.long)
        rejected = torch.zeros(1, dtype=torch.long)
        while t_end - t > 1e-6:
            if accepted + rejected >= self.max_steps:
                break
            h = torch.minimum(h, t_end - t)
            y_new, err = self.bs23_step(t, y, h)
            factor = (0.9 * err.clamp_min(1e-10) ** (-1.0 / 3.0)).clamp(0.2, 5.0)
            if err > 1.0:
                rejected = rejected + 1
                h = h * factor
                continue
            t = t + h
            y = y_new
            accepted = accepted + 1
            h = h * factor
        return y, t, accepted, rejected


def model():
    torch.manual_seed(0)
    m = AdaptiveODE()
    with torch.no_grad():
        m.f.net[2].weight.mul_(3.0)
    return m.eval()


def example_inputs():
    return (torch.linspace(-1, 1, 8).view(1, 8), torch.tensor([1.5]))


def verify_inputs():
    return [
        (torch.zeros(1, 8), torch.tensor([0.0])),  # nothing to integrate
        (torch.linspace(-2, 2, 8).view(1, 8), torch.tensor([0.05])),
        (torch.ones(1, 8), torch.tensor([50.0])),  # long horizon: step budget hit
    ]
