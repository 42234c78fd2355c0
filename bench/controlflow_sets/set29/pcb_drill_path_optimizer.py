"""Drill-head path optimisation for a PCB panel (2-opt, first improvement).

Holes are visited in the order the CAM file lists them; the optimiser repeatedly reverses a
segment of the closed tour whenever that shortens the travel by more than a tolerance, and
restarts the scan after every improvement, until a full pass finds nothing to improve.
Returns the visiting order, the tour length and the number of passes.
"""
import torch
from torch import nn


class PCBDrillPathOptimizer(nn.Module):
    def __init__(self, tol=0.05):
        super().__init__()
        self.tol = tol

    def forward(self, holes):
        # holes: [N, 2] positions in mm
        n = holes.shape[0]
        dist = torch.cdist(holes, holes)
        tour = list(range(n))
        improved = True
        passes = 0
        while improved:
            improved = False
            for i in range(1, n - 1):
                for j in range(i + 1, n):
                    a, b = tour[i - 1], tour[i]
                    c, d = tour[j], tour[(j + 1) % n]
                    delta = dist[a, c] + dist[b, d] - dist[a, b] - dist[c, d]
                    if delta < -self.tol:
                        tour[i:j + 1] = tour[i:j + 1][::-1]
                        improved = True
                        break
                if improved:
                    break
            passes += 1
        order = torch.tensor(tour)
        length = dist[order, order.roll(-1)].sum()
        return order, length, torch.tensor(passes)


def model():
    torch.manual_seed(0)
    return PCBDrillPathOptimizer().eval()


def _make(n, seed, convex=False):
    g = torch.Generator().manual_seed(seed)
    if convex:
        ang = torch.linspace(0, 6.0, n)
        r = 10.0 + torch.rand(n, generator=g)
        return (torch.stack([r * torch.cos(ang), r * torch.sin(ang)], dim=1),)
    return (torch.rand(n, 2, generator=g) * 20.0,)


def example_inputs():
    return _make(7, 0)


def dynamic_shapes():
    return ({0: torch.export.Dim("holes", min=4, max=12)},)


def verify_inputs():
    return [
        _make(6, 1, convex=True),   # already optimal: a single pass
        _make(5, 2),
        _make(8, 3),
        _make(4, 4),
        example_inputs(),
    ]
