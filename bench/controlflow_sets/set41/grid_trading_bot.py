"""Crypto spot grid-trading bot backtest.

A regime network reads market features and chooses the grid spacing and the
number of buy levels below the starting price. Walking through the price
series, a level buys a fixed slice of capital when the price crosses down
through it and sells that slice when the price crosses up through the next
grid line. A hard stop-loss below the grid liquidates everything and ends the
run; the equity curve is then held flat.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class GridTradingBot(nn.Module):
    def __init__(self, capital=1000.0, max_levels=8, stop_frac=0.2, fee=0.001):
        super().__init__()
        self.capital = capital
        self.max_levels = max_levels
        self.stop_frac = stop_frac
        self.fee = fee
        self.regime = nn.Sequential(nn.Linear(6, 16), nn.Tanh(), nn.Linear(16, 2))

    def build_grid(self, p0, spacing, n_levels):
        levels = []
        for k in range(1, n_levels + 1):
            levels.append(p0 * (1.0 - spacing * k))
        return levels

    def forward(self, prices, regime_feats):
        out = self.regime(regime_feats)
        spacing = 0.01 + 0.02 * torch.sigmoid(out[0])
        n_levels = int(torch.clamp(torch.round(2.0 + 6.0 * torch.sigmoid(out[1])), 2, self.max_levels).item())
        levels = self.build_grid(prices[0], spacing, n_levels)
        slice_cash = self.capital / n_levels

        held = [False] * n_levels
        qty = [prices.new_zeros(())] * n_levels
        cash = prices.new_full((), self.capital)
        stop = prices[0] * (1.0 - self.stop_frac)
        trades = 0
        equity = []
        for t in range(1, prices.shape[0]):
            p, prev = prices[t], prices[t - 1]
            if p < stop:
                for k in range(n_levels):
                    cash = cash + qty[k] * p * (1.0 - self.fee)
                    qty[k] = prices.new_zeros(())
                equity.append(cash)
                break
            for k in range(n_levels):
                if not held[k] and prev > levels[k] >= p:
                    qty[k] = slice_cash * (1.0 - self.fee) / p
                    cash = cash - slice_cash
                    held[k] = True
                    trades += 1
                elif held[k] and prev < levels[k] * (1.0 + spacing) <= p:
                    cash = cash + qty[k] * p * (1.0 - self.fee)
                    qty[k] = prices.new_zeros(())
                    held[k] = False
                    trades += 1
            equity.append(cash + torch.stack(qty).sum() * p)

        while len(equity) < prices.shape[0] - 1:
            equity.append(equity[-1])  # stopped out: flat
        return torch.stack(equity), torch.stack(qty).sum(), torch.tensor(trades)


def model():
    torch.manual_seed(61)
    return GridTradingBot().eval()


CALM = [0.2, -0.1, 0.3, 0.0, -0.4, 0.1]
WILD = [2.0, 1.5, -1.8, 2.2, 1.0, -2.5]


def _run(path, feats):
    """path: prices as percent of the first price (start price 300)."""
    return torch.tensor(path, dtype=torch.float32) * 3.0, torch.tensor(feats)


# price points (percent) kept well away from every CALM-regime grid line
SAFE = [100.4, 98.8, 96.6, 94.4, 92.3, 90.2, 88.5]


def _random_walk(n, seed):
    g = torch.Generator().manual_seed(seed)
    i, path = 0, [100.0]
    for step in torch.randint(-1, 2, (n - 1,), generator=g).tolist():
        i = max(0, min(len(SAFE) - 1, i + step))
        path.append(SAFE[i])
    return path


def example_inputs():
    return _run([100.0, 98.3, 96.1, 97.2, 99.0, 100.4, 97.9, 95.0], CALM)


def dynamic_shapes():
    return ({0: Dim("ticks", min=2, max=400)}, None)


def verify_inputs():
    return [
        example_inputs(),                                    # buy level 1, sell it, dip without crossing, buy 2 levels
        _run([100.0, 101.0], CALM),                          # minimum length, no crossing
        _run([100.0, 95.2, 90.6, 85.1, 78.0, 80.0, 82.0], WILD),  # 6-level grid fills, stop-loss -> break, flat tail
        _run([100.0, 95.2, 90.6, 85.1, 78.0], WILD),             # stop-loss on the last tick: nothing to pad
        _run([100.0, 96.0, 79.0, 81.0], WILD),                    # stop-loss with one tick left: pad once
        _run([100.0, 97.5, 99.9, 97.4, 99.8, 101.0], WILD),  # buy, rebound short of the sell line, sell later
        _run(_random_walk(400, 3), CALM),                    # long choppy market, many buys/sells at many levels
    ]
