"""1-D adaptive mesh refinement around shocks (CFD post-processing / solvers).

Given a field sampled on a uniform grid over [0, 1], cells whose limited jump
indicator exceeds the tolerance are split by inserting a midpoint.  The
midpoint value is the linear interpolant, corrected by a small learned
super-resolution MLP only where the local stencil is smooth (near a
discontinuity the correction is switched off to avoid oscillations).  Refining
repeats while flagged cells remain, up to a number of levels and a point
budget.  Grids already too fine for the budget are coarsened first.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ShockRefiner(nn.Module):
    def __init__(self, max_levels=4, max_points=400):
        super().__init__()
        self.max_levels = max_levels
        self.max_points = max_points
        self.corr = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 1))

    def minmod(self, a, b):
        return torch.where(a * b > 0, torch.sign(a) * torch.minimum(a.abs(), b.abs()), torch.zeros_like(a))

    def indicator(self, u):
        du = u[1:] - u[:-1]
        left = torch.cat([du[:1], du[:-1]])
        right = torch.cat([du[1:], du[-1:]])
        smooth_part = self.minmod(left, right)
        return (du - smooth_part).abs()

    def midpoint_values(self, u, flags):
        lin = 0.5 * (u[:-1] + u[1:])
        left = torch.cat([u[:1], u[:-2]])
        right = torch.cat([u[2:], u[-1:]])
        stencil = torch.stack([left, u[:-1], u[1:], right], dim=-1)
        jump = (u[1:] - u[:-1]).abs()
        if (jump[flags] > 0.5).all():
            return lin[flags]
        correction = 0.05 * torch.tanh(self.corr(stencil)).squeeze(-1)
        return torch.where(jump > 0.5, lin, lin + correction)[flags]

    def forward(self, u, tol):
        if 2 * u.shape[0] > self.max_points:
            u = F.avg_pool1d(u.view(1, 1, -1), 2).view(-1)
        x = torch.linspace(0.0, 1.0, u.shape[0])
        level = 0
        counts = []
        flags = self.indicator(u) > tol
        while flags.any() and level < self.max_levels:
            n_new = int(flags.sum())
            if x.shape[0] + n_new > self.max_points:
                break
            xm = 0.5 * (x[:-1] + x[1:])[flags]
            um = self.midpoint_values(u, flags)
            order = torch.argsort(torch.cat([x, xm]))
            x = torch.cat([x, xm])[order]
            u = torch.cat([u, um])[order]
            counts.append(flags.sum())
            level += 1
            flags = self.indicator(u) > tol
        counts = torch.stack(counts) if counts else torch.zeros(0, dtype=torch.long)
        return x, u, counts


def model():
    torch.manual_seed(2010)
    return ShockRefiner().eval()


def _field(n, kind, seed=0):
    x = torch.linspace(0.0, 1.0, n)
    g = torch.Generator().manual_seed(seed)
    if kind == "shock":
        u = torch.where(x < 0.43, torch.full_like(x, 1.0), torch.full_like(x, 0.125))
    elif kind == "two_shocks":
        u = torch.where(x < 0.31, 1.0, torch.where(x < 0.67, 0.45, 0.1)) + 0.02 * torch.sin(6.0 * x)
    elif kind == "steep":
        u = torch.tanh((x - 0.52) * 12.0)
    else:
        u = torch.sin(2 * torch.pi * x)
    return u + 0.001 * torch.randn(n, generator=g)


def example_inputs():
    return _field(64, "shock", seed=1), torch.tensor(0.1)


def dynamic_shapes():
    return ({0: torch.export.Dim("cells", min=8, max=1024)}, None)


def verify_inputs():
    return [
        # example: Sod-like shock -> refined every level up to max_levels
        example_inputs(),
        # smooth sine, tolerance not reached anywhere -> no refinement (loop runs 0 times)
        (_field(32, "smooth", seed=2), torch.tensor(0.1)),
        # steep but continuous front: refined three levels with the learned correction
        # on smooth stencils, stops once nothing is flagged (before max_levels)
        (_field(40, "steep", seed=3), torch.tensor(0.065)),
        # fine input grid (coarsened first), two shocks, tight tolerance -> point budget
        # exhausted (break)
        (_field(260, "two_shocks", seed=4), torch.tensor(0.002)),
    ]
