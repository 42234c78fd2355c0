"""Spectral normalisation of an input-dependent matrix by power iteration with a tolerance.

while with a tensor condition `not converged and it < n`, helper method returning a tuple.
"""

import torch
import torch.nn.functional as F
from torch import nn


class SpectralMixer(nn.Module):
    def __init__(self, dim=16, max_iter=50):
        super().__init__()
        self.gen = nn.Linear(dim, dim * dim)
        self.dim = dim
        self.max_iter = max_iter

    def step(self, w, u):
        v = F.normalize(w.T @ u, dim=0)
        u_new = F.normalize(w @ v, dim=0)
        return u_new, v

    def forward(self, x, tol):
        w = self.gen(x.mean(dim=0)).view(self.dim, self.dim)
        u = F.normalize(torch.ones(self.dim), dim=0)
        v = u
        it = 0
        converged = torch.tensor(False)
        while not converged and it < self.max_iter:
            u_new, v = self.step(w, u)
            converged = (u_new - u).norm() < tol
            u = u_new
            it += 1
        sigma = u @ w @ v
        return x @ (w / sigma).T


def model():
    torch.manual_seed(0)
    return SpectralMixer().eval()


def example_inputs():
    torch.manual_seed(1)
    return (torch.randn(10, 16), torch.tensor(1e-4))


def dynamic_shapes():
    return ({0: torch.export.Dim("tokens", min=1, max=512)}, None)


def verify_inputs():
    torch.manual_seed(13)
    return [
        (torch.randn(10, 16), torch.tensor(10.0)),  # converged after the first step
        (torch.randn(25, 16), torch.tensor(1e-3)),  # a handful of iterations
        (torch.randn(3, 16), torch.tensor(-1.0)),  # never converges: max_iter
    ]
