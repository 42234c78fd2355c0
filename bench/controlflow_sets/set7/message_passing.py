"""Graph propagation until node states stop changing (dense adjacency, dynamic node count).

Self-loops added only if some node is isolated ((deg == 0).any()), torch.eye on a dynamic size,
while on a tensor change, loop over nn.ModuleList inside the body (Python), continue-free.
"""

import torch
from torch import nn


class Propagator(nn.Module):
    def __init__(self, dim=16, max_rounds=25):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(dim, dim) for _ in range(2)])
        self.alpha = 0.5
        self.max_rounds = max_rounds

    def normalise(self, adj):
        deg = adj.sum(dim=1)
        if (deg == 0).any():
            adj = adj + torch.eye(adj.shape[0])
            deg = adj.sum(dim=1)
        d = deg.rsqrt()
        return d.unsqueeze(1) * adj * d.unsqueeze(0)

    def forward(self, x, adj, tol):
        a = self.normalise(adj)
        h0 = x
        for layer in self.layers:
            h0 = torch.tanh(layer(h0))
        h = h0
        delta = torch.tensor(float("inf"))
        rounds = torch.tensor(0)
        while (delta > tol) & (rounds < self.max_rounds):
            h_new = (1 - self.alpha) * h0 + self.alpha * (a @ h)
            delta = (h_new - h).abs().max()
            h = h_new
            rounds += 1
        return h, rounds


def ring(n):
    adj = torch.zeros(n, n)
    idx = torch.arange(n)
    adj[idx, (idx + 1) % n] = 1.0
    adj[(idx + 1) % n, idx] = 1.0
    return adj


def model():
    torch.manual_seed(0)
    return Propagator().eval()


def example_inputs():
    torch.manual_seed(1)
    return (torch.randn(6, 16), ring(6), torch.tensor(1e-4))


def dynamic_shapes():
    n = torch.export.Dim("nodes", min=3, max=256)
    return ({0: n}, {0: n, 1: n}, None)


def verify_inputs():
    torch.manual_seed(15)
    isolated = ring(9)
    isolated[4, :] = 0.0
    isolated[:, 4] = 0.0
    return [
        (torch.randn(9, 16), isolated, torch.tensor(1e-4)),  # isolated node: self-loops; converges
        (torch.randn(20, 16), ring(20), torch.tensor(-1.0)),  # no isolated node; tol -1: max_rounds
        (torch.randn(5, 16), ring(5), torch.tensor(float("inf"))),  # zero rounds
    ]
