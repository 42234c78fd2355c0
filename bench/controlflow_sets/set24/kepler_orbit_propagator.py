"""Two-body orbit propagation: solve Kepler's equation with Newton iterations.

For a batch of elliptical orbits (mean anomaly M, eccentricity e, semi-major
axis a) find the eccentric anomaly E with E - e sin E = M, then return the
in-plane position.  Near-parabolic orbits are clamped to e = 0.98 (the solver
is only valid for ellipses); the initial guess switches to E0 = pi for highly
eccentric batches, and the Newton loop stops when the largest update is below
the tolerance or the iteration cap is reached.
"""
import math

import torch
import torch.nn as nn


class KeplerPropagator(nn.Module):
    def __init__(self, tol=1e-2, max_iters=5, e_max=0.98, high_e=0.8):
        super().__init__()
        self.tol = tol
        self.max_iters = max_iters
        self.e_max = e_max
        self.high_e = high_e

    def wrap(self, M):
        # mean anomaly into [-pi, pi)
        return torch.remainder(M + math.pi, 2 * math.pi) - math.pi

    def solve(self, M, e):
        E = torch.full_like(M, math.pi) * torch.sign(M) if (e > self.high_e).any() else M + e * torch.sin(M)
        delta = torch.full_like(M, float("inf"))
        it = 0
        while delta.abs().max() > self.tol:
            f = E - e * torch.sin(E) - M
            fp = 1.0 - e * torch.cos(E)
            delta = f / fp
            E = E - delta
            it += 1
            if it >= self.max_iters:
                break
        return E

    def forward(self, M, e, a):
        if (e > self.e_max).any():
            e = e.clamp(max=self.e_max)
        M = self.wrap(M)
        E = self.solve(M, e)
        x = a * (torch.cos(E) - e)
        y = a * torch.sqrt(1.0 - e * e) * torch.sin(E)
        return torch.stack([x, y], dim=1)


def model():
    return KeplerPropagator().eval()


def _orbits(g, n, e_lo, e_hi, M_scale=3.0):
    M = (torch.rand(n, generator=g) * 2 - 1) * M_scale
    e = e_lo + (e_hi - e_lo) * torch.rand(n, generator=g)
    a = 1.0 + torch.rand(n, generator=g)
    return M, e, a


def example_inputs():
    g = torch.Generator().manual_seed(0)
    return _orbits(g, 8, 0.0, 0.5)


def dynamic_shapes():
    n = torch.export.Dim("n_orbits", min=2, max=256)
    return ({0: n}, {0: n}, {0: n})


def verify_inputs():
    g = torch.Generator().manual_seed(13)
    return [
        _orbits(g, 6, 0.0, 0.02),                     # near-circular: one Newton step
        _orbits(g, 6, 0.0, 0.3),                      # low eccentricity
        _orbits(g, 10, 0.5, 0.95, M_scale=9.0),       # high e: pi initial guess, wrapping
        (torch.tensor([1.0, -2.0, 0.5]), torch.tensor([0.3, 0.995, 0.9]), torch.tensor([1.0, 2.0, 1.5])),  # clamp
        (torch.tensor([0.02, -0.05]), torch.tensor([0.975, 0.97]), torch.tensor([1.0, 1.0])),  # iteration cap
    ]
