"""APPNP-style graph network: MLP node predictions propagated by personalized PageRank until convergence."""

import torch
from torch import nn

IN_FEAT, N_CLASSES = 8, 4


def normalize_adjacency(adj):
    adj = adj + torch.eye(adj.shape[0])
    deg = adj.sum(1)
    d_inv_sqrt = deg.pow(-0.5)
    return d_inv_sqrt[:, None] * adj * d_inv_sqrt[None, :]


class APPNP(nn.Module):
    def __init__(self, alpha: float = 0.1):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(IN_FEAT, 32), nn.ReLU(), nn.Linear(32, N_CLASSES))
        self.alpha = alpha

    def propagate(self, a_hat, h0, tol, max_iter):
        h = h0
        delta = torch.tensor(float("inf"))
        it = torch.tensor(0)
        while delta > tol and it < max_iter:
            h_new = (1 - self.alpha) * (a_hat @ h) + self.alpha * h0
            delta = (h_new - h).abs().max()
            h = h_new
            it = it + 1
        return h, it

    def forward(self, x, adj, tol, max_iter):
        h0 = self.mlp(x)
        h, n_iter = self.propagate(normalize_adjacency(adj), h0, tol, max_iter)
        return h.log_softmax(-1), n_iter


def model():
    torch.manual_seed(0)
    return APPNP().eval()


def _graph(n, p, seed):
    g = torch.Generator().manual_seed(seed)
    a = (torch.rand(n, n, generator=g) < p).float()
    a = torch.triu(a, 1)
    return torch.randn(n, IN_FEAT, generator=g), a + a.t()


def example_inputs():
    x, a = _graph(12, 0.3, 1)
    return (x, a, torch.tensor(1e-4), torch.tensor(50))


def dynamic_shapes():
    n = torch.export.Dim("nodes", min=1, max=200)
    return ({0: n}, {0: n, 1: n}, None, None)


def verify_inputs():
    x1, a1 = _graph(30, 0.2, 2)
    x2, a2 = _graph(200, 0.05, 3)
    x3, a3 = _graph(1, 0.5, 4)
    x4, a4 = _graph(8, 0.0, 5)
    return [
        (x1, a1, torch.tensor(1e-5), torch.tensor(100)),  # converges by tolerance
        (x2, a2, torch.tensor(1e-9), torch.tensor(7)),  # stops at max_iter
        (x3, a3, torch.tensor(1e-4), torch.tensor(10)),  # a single node
        (x4, a4, torch.tensor(1e-4), torch.tensor(0)),  # max_iter 0: no iteration
        (x1, a1, torch.tensor(10.0), torch.tensor(100)),  # loose tolerance: one iteration
    ]
