"""Glacier surface energy balance: per grid cell, iterate the surface temperature to equilibrium
(Newton steps on a learned flux residual) until the update is tiny or an iteration cap; melt is the
energy surplus once the surface is clamped at 0 C."""
import torch
from torch import nn


class EnergyBalance(nn.Module):
    def __init__(self):
        super().__init__()
        self.turb = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 1))
        self.tol = 1e-3
        self.max_iter = 12

    def residual(self, ts, forcing):
        # net flux (scaled) at surface temperature ts (deg C / 10)
        sw, lw, air = forcing[:, 0], forcing[:, 1], forcing[:, 2]
        turb = 0.1 * torch.tanh(self.turb(forcing).squeeze(-1))
        return sw + lw - 0.5 * (ts + 2.7) + 0.3 * (air - ts) + turb

    def forward(self, forcing):
        # forcing: (cells, 3) [shortwave, longwave, air temp]
        ts = forcing[:, 2].clone()
        step = torch.ones(())
        it = 0
        while step > self.tol and it < self.max_iter:
            r = self.residual(ts, forcing)
            new = ts + 0.5 * r / 0.8      # damped Newton step
            step = (new - ts).abs().max()
            ts = new
            it += 1
        melt = torch.relu(self.residual(torch.zeros_like(ts), forcing))
        if (ts > 0).any():
            ts = ts.clamp(max=0.0)
        else:
            melt = melt * 0.0
        return ts, melt


def model():
    torch.manual_seed(0)
    return EnergyBalance().eval()


def example_inputs():
    return (torch.tensor([[1.2, 0.8, 0.3], [0.5, 0.6, -0.4], [1.8, 0.9, 0.5]]),)


def dynamic_shapes():
    return ({0: torch.export.Dim("cells", min=2, max=4096)},)


def verify_inputs():
    return [(torch.tensor([[0.1, 0.3, -1.5], [0.0, 0.2, -2.0]]),),
            (torch.tensor([[1.5, 0.9, 0.5]] * 6),),
            (torch.tensor([[6.0, 0.9, -3.0], [0.4, 0.5, 0.1]]),)]        # far from equilibrium: hits the cap
