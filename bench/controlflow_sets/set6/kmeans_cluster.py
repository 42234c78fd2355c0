"""Differentiable-free k-means refinement of learned centroids over a point set (e.g. palette
extraction): fixed max iterations with `break` once centroids stop moving; the cluster update skips
empty clusters with torch.where."""

import torch
from torch import nn


class KMeans(nn.Module):
    def __init__(self, k: int = 4, dim: int = 3, iters: int = 10, tol: float = 1e-4):
        super().__init__()
        self.init_centroids = nn.Parameter(torch.randn(k, dim))
        self.iters = iters
        self.tol = tol

    def forward(self, pts: torch.Tensor) -> torch.Tensor:
        c = self.init_centroids
        for _ in range(self.iters):
            d = torch.cdist(pts, c)
            assign = torch.nn.functional.one_hot(d.argmin(dim=1), c.shape[0]).float()
            counts = assign.sum(dim=0)
            sums = assign.t() @ pts
            new_c = torch.where(counts[:, None] > 0, sums / counts.clamp(min=1)[:, None], c)
            shift = (new_c - c).abs().max()
            c = new_c
            if shift < self.tol:
                break
        return c


def model() -> nn.Module:
    torch.manual_seed(0)
    return KMeans().eval()


def example_inputs() -> tuple:
    torch.manual_seed(1)
    return (torch.randn(50, 3),)


def dynamic_shapes():
    return ({0: torch.export.Dim("points", min=1, max=4096)},)


def verify_inputs() -> list:
    g = torch.Generator().manual_seed(10)
    m = model()
    return [
        (m.init_centroids.detach().clone(),),  # points equal centroids: break on first iteration
        (torch.randn(200, 3, generator=g),),  # never settles within 10 iterations: no break
        (torch.randn(1, 3, generator=g) * 5,),  # single point: breaks on the second iteration
        (
            torch.cat([torch.randn(300, 3, generator=g) * 2.0, torch.randn(10, 3, generator=g) + 9.0]),
        ),  # no break
    ]
