"""Graph label propagation: at most N rounds (N = number of nodes, dynamic), stop when nothing changes."""

import torch
from torch import nn


class LabelProp(nn.Module):
    def forward(self, adj, seeds):
        reached = seeds > 0
        rounds = torch.zeros((), dtype=torch.long)
        for _ in range(adj.shape[0]):
            new = ((adj @ reached.float()) > 0) | reached
            changed = new & ~reached
            if not changed.any():
                break
            reached = new
            rounds = rounds + 1
        return reached.float(), rounds


def model():
    return LabelProp()


def _chain(n):
    a = torch.zeros(n, n)
    idx = torch.arange(n - 1)
    a[idx, idx + 1] = 1.0
    a[idx + 1, idx] = 1.0
    return a


def example_inputs():
    s = torch.zeros(6)
    s[0] = 1
    return (_chain(6), s)


def dynamic_shapes():
    n = torch.export.Dim("n", min=2, max=128)
    return ({0: n, 1: n}, {0: n})


def verify_inputs():
    s = torch.zeros(10)
    s[4] = 1
    iso = torch.zeros(3, 3)
    return [(_chain(10), s), (iso, torch.tensor([1.0, 0.0, 0.0]))]
