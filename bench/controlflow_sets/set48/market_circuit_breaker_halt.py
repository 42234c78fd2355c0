"""Market-wide circuit breaker: halts index trading at 7% / 13% / 20% drops below the prior close.

Level 1/2 halts only apply before 15:25 (minute 355 of the session); a level-3 drop closes the
market for the day at any time. A tiny learned head scores short-term volatility for the desk.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class CircuitBreaker(nn.Module):
    def __init__(self, window=8, cutoff_minute=355):
        super().__init__()
        self.window = window
        self.cutoff_minute = cutoff_minute
        self.vol_head = nn.Sequential(nn.Linear(window, 16), nn.Tanh(), nn.Linear(16, 1))

    def forward(self, prices, prev_close):
        n = prices.shape[0]
        rets = prices / prev_close - 1.0
        if n >= self.window:
            feat = rets[-self.window:]
        else:
            feat = F.pad(rets, (self.window - n, 0))
        vol = torch.sigmoid(self.vol_head(feat.unsqueeze(0) * 50.0)).reshape(())

        drawdown = -rets.min()
        if drawdown >= 0.20:
            # level 3: trading halted for the remainder of the day
            first = torch.nonzero(rets <= -0.20)[0, 0]
            return torch.tensor(3.0), first.float(), vol

        if drawdown >= 0.13:
            level, thresh = 2.0, -0.13
        elif drawdown >= 0.07:
            level, thresh = 1.0, -0.07
        else:
            return torch.tensor(0.0), torch.tensor(-1.0), vol

        halt_at = torch.tensor(-1.0)
        for t in range(n):
            if rets[t] <= thresh:
                halt_at = torch.tensor(float(t))
                break

        if halt_at >= self.cutoff_minute and prices[-1] > 0.8 * prev_close:
            # too late in the session for a level 1/2 halt
            level = 0.0
        return torch.tensor(level), halt_at, vol


def model():
    torch.manual_seed(48001)
    return CircuitBreaker().eval()


def _session(n, drop_at, depth):
    t = torch.arange(n, dtype=torch.float32)
    wiggle = 0.01 * torch.sin(0.37 * t)
    drop = torch.where(t >= drop_at, torch.tensor(-depth), torch.tensor(0.0))
    return 4000.0 * (1.0 + wiggle + drop)


def example_inputs():
    return (_session(100, 50, 0.15), torch.tensor(4000.0))


def dynamic_shapes():
    return ({0: torch.export.Dim("minutes", min=2, max=512)}, None)


def verify_inputs():
    pc = torch.tensor(4000.0)
    return [
        example_inputs(),                      # level 2, loop breaks at t=50 (not-taken before), early in day
        (_session(30, 10, 0.03), pc),          # calm day: early return level 0 (drawdown < 7%)
        (_session(5, 3, 0.10), pc),            # n < window -> pad branch; level 1 halt at t=3
        (_session(400, 380, 0.09), pc),        # level-1 drop at minute 380 -> after cutoff, level reset to 0
        (_session(60, 20, 0.25), pc),          # level 3 early return
        (_session(2, 5, 0.30), pc),            # min size (drop never reached): calm early return
    ]
