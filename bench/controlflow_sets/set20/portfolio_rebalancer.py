"""Portfolio rebalancer for a robo-advisor.

A linear alpha model turns per-asset features into target weights; the current
weights are moved halfway towards the target until the largest drift is within
tolerance, and the trading fee tier depends on turnover and concentration.
"""
import torch
import torch.nn as nn


class Rebalancer(nn.Module):
    def __init__(self, n_feats=6, tol=0.01):
        super().__init__()
        self.tol = tol
        self.alpha = nn.Linear(n_feats, 1)

    def forward(self, feats, weights):  # feats: [N, 6]; weights: [N]
        target = torch.softmax(2.0 * self.alpha(feats).squeeze(-1), 0)
        w = weights
        drift = target - w
        turnover = torch.zeros(())
        while drift.abs().max() > self.tol:
            trade = 0.5 * drift
            w = w + trade
            turnover = turnover + trade.abs().sum()
            drift = target - w
        if turnover > 0.3 and not (w > 0.4).any():
            fee = turnover * 0.002
        elif turnover > 0.3:
            fee = turnover * 0.004
        else:
            fee = turnover * 0.0
        return w, fee


def _case(N, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(N, 6, generator=g)


def model():
    torch.manual_seed(0)
    return Rebalancer().eval()


def _target(feats):
    return model()(feats, torch.zeros(feats.shape[0]))[0]


def example_inputs():
    f = _case(8, 6)
    return (f, torch.full((8,), 1.0 / 8))


def dynamic_shapes():
    N = torch.export.Dim("assets", min=2, max=64)
    return ({0: N}, {0: N})


def verify_inputs():
    f1, f2, f3 = _case(5, 1), _case(3, 2), _case(20, 3)
    t1 = _target(f1)
    return [
        (f1, t1 + torch.tensor([0.004, -0.004, 0.002, -0.002, 0.0])),   # already on target
        (f2, torch.tensor([0.9, 0.1, 0.0])),                               # concentrated book
        (f3, torch.full((20,), 0.05)),
    ]
