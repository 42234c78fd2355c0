"""Deep-equilibrium layer: fixed-point iteration z = tanh(W z + U x) until the residual < tol.

while with a tensor condition combining residual and a tensor iteration counter (`&`-free `and`).
"""

import torch
from torch import nn


class DEQLayer(nn.Module):
    def __init__(self, dim=24, max_iter=30):
        super().__init__()
        self.w = nn.Linear(dim, dim, bias=False)
        self.u = nn.Linear(dim, dim)
        with torch.no_grad():
            self.w.weight.mul_(0.5 / torch.linalg.matrix_norm(self.w.weight, ord=2))
        self.max_iter = max_iter

    def forward(self, x, tol):
        inj = self.u(x)
        z = torch.tanh(inj)
        res = (torch.tanh(self.w(z) + inj) - z).abs().max()
        it = torch.zeros((), dtype=torch.long)
        while res > tol and it < self.max_iter:
            z_next = torch.tanh(self.w(z) + inj)
            res = (z_next - z).abs().max()
            z = z_next
            it = it + 1
        return z, it


def model():
    torch.manual_seed(0)
    return DEQLayer().eval()


def example_inputs():
    torch.manual_seed(1)
    return (torch.randn(4, 24), torch.tensor(1e-4))


def dynamic_shapes():
    return ({0: torch.export.Dim("batch", min=1, max=64)}, None)


def verify_inputs():
    torch.manual_seed(10)
    return [
        (torch.randn(4, 24), torch.tensor(10.0)),  # already within tol: zero iterations
        (torch.randn(7, 24), torch.tensor(1e-3)),  # converges after a few iterations
        (torch.randn(2, 24), torch.tensor(-1.0)),  # never below -1: hits max_iter
    ]
