"""Jacobi iterations for Ax=b, iteration count from a tensor; residual history via torch.cat."""

import torch
from torch import nn


class Jacobi(nn.Module):
    def forward(self, A, b, n_iter):
        D = torch.diagonal(A)
        R = A - torch.diag_embed(D)
        x = torch.zeros_like(b)
        history = []
        for _ in range(int(n_iter.item())):
            x = (b - R @ x) / D
            r = (A @ x - b).norm().reshape(1)
            history.append(r)
        if len(history) == 0:
            return x, torch.zeros(1)
        return x, torch.cat(history)


def model():
    return Jacobi()


def _A(n, seed):
    g = torch.Generator().manual_seed(seed)
    a = torch.rand(n, n, generator=g)
    return a + torch.eye(n) * n


def example_inputs():
    return (_A(4, 0), torch.ones(4), torch.tensor(5))


def dynamic_shapes():
    n = torch.export.Dim("n", min=2, max=32)
    return ({0: n, 1: n}, {0: n}, None)


def verify_inputs():
    return [
        (_A(6, 1), torch.arange(6.0), torch.tensor(12)),
        (_A(3, 2), torch.ones(3), torch.tensor(1)),
        (_A(5, 3), torch.ones(5), torch.tensor(0)),
    ]
