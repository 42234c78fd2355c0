"""Pumping-test forecast: drawdown at observation wells over time from the Theis
solution, with aquifer transmissivity / storativity predicted from site
descriptors. The well function switches between Cooper-Jacob, the convergent
series and the far-field asymptotic expansion.

Kind T; constructs 1, 2, 3, 4, 7."""
import math

import torch
import torch.nn as nn
from torch.export import Dim

EULER = 0.5772156649


def asymptotic_w(u):
    return torch.exp(-u) / u * (1 - 1 / u + 2 / u ** 2)


def series_w(u, tol=1e-7, max_terms=60):
    """W(u) = -gamma - ln u + sum_k (-1)^(k+1) u^k / (k k!), summed until the terms are negligible."""
    w = -EULER - torch.log(u)
    term = u.clone()            # u^k / (k * k!) for k = 1
    k = 1
    while (term > tol).any() and k < max_terms:
        w = w + term if k % 2 == 1 else w - term
        k += 1
        term = term * u * (k - 1) / (k * k)
    return torch.clamp(w, min=0.0)


def well_function(u, u_far=5.0):
    """Theis well function W(u) = E1(u)."""
    if u.max() < 0.01:
        # late time / close to the well: Cooper-Jacob straight line
        return -EULER - torch.log(u)
    if u.min() > u_far:
        # early time / far away: asymptotic expansion only
        return asymptotic_w(u)
    w = series_w(torch.clamp(u, max=u_far))
    if u.max() > u_far:
        w = torch.where(u > u_far, asymptotic_w(torch.clamp(u, min=u_far)), w)
    return w


class DrawdownForecaster(nn.Module):
    def __init__(self):
        super().__init__()
        torch.manual_seed(408)
        # site descriptors: grain size, sorting, thickness, depth, clay fraction (normalised)
        self.site_net = nn.Sequential(nn.Linear(5, 16), nn.Tanh(), nn.Linear(16, 2))

    def aquifer_params(self, site):
        z = torch.sigmoid(self.site_net(site))
        transmissivity = 10 ** (-4 + 2 * z[0])   # 1e-4 .. 1e-2 m2/s
        storativity = 10 ** (-5 + 3 * z[1])      # 1e-5 .. 1e-2
        return transmissivity, storativity

    def forward(self, site, r, t, q):
        # site: [5], r: [M] well distances (m), t: [K] times since pumping started (s), q: [1] rate (m3/s)
        T, S = self.aquifer_params(site)
        u = r[:, None] ** 2 * S / (4 * T * t[None, :])
        s = q[0] / (4 * math.pi * T) * well_function(u)
        return s, torch.stack([T, S])


def model():
    return DrawdownForecaster().eval()


SITE = torch.tensor([0.3, -0.5, 1.0, 0.2, -1.0])


def _geom(r_lo, r_hi, M, t_lo, t_hi, K):
    r = torch.logspace(math.log10(r_lo), math.log10(r_hi), M)
    t = torch.logspace(math.log10(t_lo), math.log10(t_hi), K)
    return r, t


def example_inputs():
    r, t = _geom(5.0, 200.0, 6, 60.0, 86400.0, 12)
    return SITE, r, t, torch.tensor([0.01])


def dynamic_shapes():
    return (None, {0: Dim("wells", min=2, max=32)}, {0: Dim("times", min=2, max=48)}, None)


def verify_inputs():
    return [
        example_inputs(),                                              # mixed u range -> series + asymptotic tail
        (SITE, *_geom(0.5, 1.0, 2, 86400.0, 864000.0, 3), torch.tensor([0.02])),   # near well, late: Cooper-Jacob
        (SITE, *_geom(30.0, 60.0, 4, 10.0, 20.0, 2), torch.tensor([0.05])),         # far, early (all u > 5): asymptotic
        (SITE, *_geom(1.0, 1.5, 3, 20.0, 40.0, 2), torch.tensor([0.01])),           # u just above the Cooper-Jacob limit: series, few terms
        (SITE, *_geom(2.0, 800.0, 32, 30.0, 1e6, 48), torch.tensor([0.015])),       # max grid, full range -> series + asymptotic tail
        (torch.tensor([-1.0, 1.0, -0.5, 0.0, 0.8]), *_geom(10.0, 50.0, 5, 600.0, 6000.0, 4),
         torch.tensor([0.008])),                                                    # other site, all u below 5: series only
    ]
