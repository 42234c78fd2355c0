"""LISTA-style unrolled sparse coder: learned ISTA iterations that stop early once the residual is small."""

import torch
from torch import nn

M, N = 16, 32  # measurements, code size


class LISTA(nn.Module):
    def __init__(self, n_iters: int = 12, tol: float = 7e-2):
        super().__init__()
        torch.manual_seed(0)
        dictionary = torch.randn(M, N) / M**0.5
        step = 1.0 / torch.linalg.matrix_norm(dictionary, ord=2) ** 2
        self.register_buffer("dictionary", dictionary)
        self.W = nn.Linear(M, N, bias=False)
        self.S = nn.Linear(N, N, bias=False)
        with torch.no_grad():
            self.W.weight.copy_(step * dictionary.t())
            self.S.weight.copy_(torch.eye(N) - step * dictionary.t() @ dictionary)
        self.thetas = nn.Parameter(torch.full((n_iters,), 0.01))
        self.n_iters = n_iters
        self.tol = tol

    @staticmethod
    def soft_threshold(x, theta):
        return torch.sign(x) * torch.relu(x.abs() - theta)

    def forward(self, y):  # y: (B, M)
        b_y = self.W(y)
        z = self.soft_threshold(b_y, self.thetas[0])
        steps = torch.tensor(1)
        for k in range(1, self.n_iters):
            residual = y - z @ self.dictionary.t()
            if bool(residual.norm(dim=1).max() < self.tol):
                break
            z = self.soft_threshold(b_y + self.S(z), self.thetas[k])
            steps = steps + 1
        return z, steps


def model():
    return LISTA().eval()


def example_inputs():
    g = torch.Generator().manual_seed(1)
    return (torch.randn(4, M, generator=g),)


def dynamic_shapes():
    return ({0: torch.export.Dim("batch", min=1, max=64)},)


def verify_inputs():
    g = torch.Generator().manual_seed(2)
    return [
        (torch.zeros(3, M),),  # zero measurement: converged before the first update
        (torch.randn(64, M, generator=g),),  # never below tolerance: runs every iteration
        (_sparse_measurement(0.05),),  # small 2-sparse signal: stops after 3 iterations
        (torch.randn(2, M, generator=g) * 0.2,),
    ]


def _sparse_measurement(amp):
    code = torch.zeros(1, N)
    code[0, 3], code[0, 17] = amp, -1.5 * amp
    return code @ model().dictionary.t()
