"""Statistical-arbitrage pairs trading backtest step: hedge ratio by least
squares on log prices, rolling z-score of the spread, an entry / exit /
stop-loss position state machine, the resulting PnL curve, and a small learned
risk head that scores the pair for the portfolio allocator.

Inputs: price_a [T], price_b [T] (daily closes of the two legs).
Outputs: positions [T] (-1 short spread, 0 flat, +1 long spread), cumulative PnL [T], risk score [1].
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def rolling_zscore(x, window):
    if x.shape[0] < window:
        window = x.shape[0]
    padded = F.pad(x.view(1, 1, -1), (window - 1, 0), mode="replicate").view(-1)
    win = padded.unfold(0, window, 1)
    mu = win.mean(dim=1)
    sd = win.std(dim=1).clamp(min=1e-4)
    return (x - mu) / sd


class PairsTrader(nn.Module):
    def __init__(self, window=20, entry=2.0, exit=0.5, stop=4.0):
        super().__init__()
        self.window = window
        self.entry = entry
        self.exit = exit
        self.stop = stop
        self.risk = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, price_a, price_b):
        la, lb = price_a.log(), price_b.log()
        lbc = lb - lb.mean()
        beta = (lbc * (la - la.mean())).sum() / (lbc * lbc).sum()
        spread = la - beta * lb
        z = rolling_zscore(spread, self.window)

        pos = 0
        positions = []
        for t in range(z.shape[0]):
            zt = z[t]
            if pos == 0:
                if zt > self.entry:
                    pos = -1
                elif zt < -self.entry:
                    pos = 1
            elif zt.abs() > self.stop:
                pos = 0
            elif pos == 1 and zt > -self.exit:
                pos = 0
            elif pos == -1 and zt < self.exit:
                pos = 0
            positions.append(pos)

        positions = torch.tensor(positions, dtype=spread.dtype)
        held = torch.cat([positions.new_zeros(1), positions[:-1]])
        pnl = torch.cumsum(held * torch.diff(spread, prepend=spread[:1]), dim=0)
        feats = torch.stack([beta, spread.std() * 10.0, positions.abs().mean(), pnl[-1] * 10.0])
        return positions, pnl, torch.sigmoid(self.risk(feats))


def model():
    torch.manual_seed(9)
    return PairsTrader().eval()


def _pair(t, seed, shocks=()):
    g = torch.Generator().manual_seed(seed)
    common = torch.cumsum(0.01 * torch.randn(t, generator=g), 0)
    # mean-reverting spread (AR(1))
    s = torch.zeros(t)
    eps = 0.004 * torch.randn(t, generator=g)
    for i in range(1, t):
        s[i] = 0.85 * s[i - 1] + eps[i]
    for day, size in shocks:
        s[day] += size
    pb = 50.0 * torch.exp(common)
    pa = 80.0 * torch.exp(1.2 * common + s)
    return pa, pb


def example_inputs():
    return _pair(120, seed=1)


def dynamic_shapes():
    t = torch.export.Dim("days", min=10, max=500)
    return ({0: t}, {0: t})


def verify_inputs():
    return [
        example_inputs(),  # entries on both sides and mean-reversion exits
        _pair(300, seed=2, shocks=[(150, 0.02), (151, 0.25)]),  # spread jumps (entry) then blows out -> stop-loss
        _pair(12, seed=3),  # shorter than the z-score window (window shrinks)
        _pair(60, seed=4),  # medium history
    ]
