"""Stable polynomial graph filter (GNN layer): the adjacency's spectral
radius is estimated by power iteration (bounded iteration count, early stop
on convergence); the adjacency is rescaled only when the radius exceeds 1,
then K learned propagation taps are applied and mixed by a linear layer."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SpectralGraphFilter(nn.Module):
    def __init__(self, in_dim=4, out_dim=6, taps=3, tol=0.01):
        super().__init__()
        self.theta = nn.Parameter(torch.randn(taps) * 0.5)
        self.mix = nn.Linear(in_dim, out_dim)
        self.tol = tol

    def spectral_radius(self, adj, n_iter):
        v = torch.ones(adj.shape[0]) / adj.shape[0] ** 0.5
        rho_prev = torch.zeros(())
        for _ in range(n_iter):
            v = F.normalize(adj @ v, dim=0)
            rho = v @ adj @ v
            if (rho - rho_prev).abs() < self.tol * rho:
                break
            rho_prev = rho
        return v @ adj @ v

    def forward(self, adj, x, n_iter):
        rho = self.spectral_radius(adj, int(n_iter.item()))
        a = adj
        if rho > 1.0:
            a = adj / rho
        h = x
        out = torch.zeros_like(x)
        for k in range(self.theta.shape[0]):  # static
            out = out + self.theta[k] * h
            h = a @ h
        return self.mix(out), rho


def model():
    torch.manual_seed(0)
    return SpectralGraphFilter().eval()


def _graph(n, p, weight, seed, n_iter):
    g = torch.Generator().manual_seed(seed)
    mask = torch.rand(n, n, generator=g) < p
    w = torch.rand(n, n, generator=g) * weight
    adj = torch.triu(torch.where(mask, w, torch.zeros_like(w)), diagonal=1)
    adj = adj + adj.T
    x = torch.randn(n, 4, generator=g)
    return adj, x, torch.tensor(n_iter)


def example_inputs():
    return _graph(6, 0.5, 1.0, 0, 20)


def dynamic_shapes():
    n = torch.export.Dim("nodes", min=2, max=256)
    return ({0: n, 1: n}, {0: n}, None)


def verify_inputs():
    return [
        _graph(9, 0.3, 0.5, 1, 3),
        _graph(4, 0.8, 2.0, 2, 0),
        _graph(7, 0.5, 0.6, 3, 50),
    ]
