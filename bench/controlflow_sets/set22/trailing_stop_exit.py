"""Retail trading app: volatility-scaled trailing stop / take-profit exit over a price path."""
import torch
import torch.nn as nn


class TrailingStopExit(nn.Module):
    def __init__(self):
        super().__init__()
        self.vol_net = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 1))

    def forward(self, prices):
        rets = prices[1:] / prices[:-1] - 1.0
        feats = torch.stack([rets.abs().mean(), rets.pow(2).mean().sqrt()]) * 50.0
        trail = 0.03 + 0.05 * torch.sigmoid(self.vol_net(feats)).squeeze(-1)
        take_profit = 1.0 + 3.0 * trail
        entry = prices[0]
        peak = entry
        exit_idx = prices.shape[0] - 1
        reason = 0  # held to the end of the window
        for t in range(1, prices.shape[0]):
            p = prices[t]
            if p > peak:
                peak = p
            elif p < peak * (1.0 - trail):
                exit_idx = t
                reason = 1  # stopped out
                break
            if p > entry * take_profit:
                exit_idx = t
                reason = 2  # profit taken
                break
        pnl = prices[exit_idx] / entry - 1.0
        return torch.tensor(exit_idx), torch.tensor(reason), pnl, trail


def model():
    torch.manual_seed(0)
    return TrailingStopExit().eval()


def example_inputs():
    return (torch.tensor([10.00, 10.21, 10.47, 10.36, 10.62, 10.40, 9.71, 9.90, 10.05]),)


def dynamic_shapes():
    return ({0: torch.export.Dim("ticks", min=2, max=512)},)


def verify_inputs():
    return [
        (torch.tensor([10.00, 10.12, 10.05]),),                                  # held
        (torch.tensor([20.00, 20.55, 21.30, 21.05, 22.40, 23.60, 24.90, 25.10]),),  # take profit
        (torch.tensor([15.00, 14.62, 14.12, 13.50, 13.90, 12.80]),),              # stopped early
    ]
