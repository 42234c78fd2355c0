"""Markov-chain n-step transition by binary exponentiation; exponent is a tensor (while + if on tensors)."""

import torch
from torch import nn


class MatPow(nn.Module):
    def forward(self, P, k):
        result = torch.eye(P.shape[0])
        base = P
        while k > 0:
            if k % 2 == 1:
                result = result @ base
            base = base @ base
            k = k // 2
        return result


def model():
    return MatPow()


def _P(n, seed):
    g = torch.Generator().manual_seed(seed)
    p = torch.rand(n, n, generator=g)
    return p / p.sum(-1, keepdim=True)


def example_inputs():
    return (_P(4, 0), torch.tensor(5))


def dynamic_shapes():
    n = torch.export.Dim("n", min=2, max=32)
    return ({0: n, 1: n}, None)


def verify_inputs():
    return [(_P(6, 1), torch.tensor(12)), (_P(3, 2), torch.tensor(0)), (_P(5, 3), torch.tensor(1))]
