"""Split-adjusted volatility estimator for raw daily stock bars.

Raw vendor prices are not adjusted for corporate actions. Day over day, a
price ratio close to an integer k >= 2 is treated as a k:1 forward split and a
jump up by close to k as a 1:k reverse split; earlier history is rescaled.
Halted days (zero volume) are skipped. A small network then estimates
next-day volatility from windows of absolute log returns.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class SplitAdjustedVolatility(nn.Module):
    def __init__(self, window=5, tol=0.08):
        super().__init__()
        self.window = window
        self.tol = tol
        self.vol_net = nn.Sequential(nn.Linear(window, 16), nn.ReLU(), nn.Linear(16, 1), nn.Softplus())

    def forward(self, close, volume):
        adj_close = close.clone()
        adj_volume = volume.clone()
        factors = []
        for t in range(1, close.shape[0]):
            if volume[t] == 0:
                continue  # trading halt: price just carried forward
            r = close[t - 1] / close[t]
            k = torch.round(r)
            if r > 1.8 and (r - k).abs() < self.tol:
                adj_close[:t] = adj_close[:t] / k
                adj_volume[:t] = adj_volume[:t] * k
                factors.append(k)
                continue
            if r < 0.6:
                inv = 1.0 / r
                kk = torch.round(inv)
                if (inv - kk).abs() < self.tol * kk:
                    adj_close[:t] = adj_close[:t] * kk
                    adj_volume[:t] = adj_volume[:t] / kk
                    factors.append(1.0 / kk)

        rets = torch.log(adj_close[1:] / adj_close[:-1])
        if rets.shape[0] >= self.window:
            win = rets.abs().unfold(0, self.window, 1) * 100.0
            vol = self.vol_net(win).squeeze(-1).mean()
        else:
            vol = rets.abs().mean() * 100.0
        cum = torch.stack(factors).prod() if factors else close.new_ones(())
        return adj_close, adj_volume, vol, cum


def model():
    torch.manual_seed(17)
    return SplitAdjustedVolatility().eval()


def _bars(prices, volumes=None):
    p = torch.tensor(prices, dtype=torch.float32)
    v = torch.tensor(volumes if volumes is not None else [1000.0] * len(prices), dtype=torch.float32)
    return p, v


def example_inputs():
    # 2:1 split between day 5 and day 6
    return _bars([100.0, 101.5, 99.8, 102.3, 103.1, 104.0, 52.2, 51.7, 52.9, 53.4, 52.8, 54.1])


def dynamic_shapes():
    t = Dim("days", min=2, max=512)
    return ({0: t}, {0: t})


def verify_inputs():
    return [
        example_inputs(),                                              # one forward split -> adjust + continue
        _bars([20.0, 20.4, 19.9]),                                     # no splits, short series (< window returns)
        _bars([100.0, 98.0, 42.0, 43.5, 44.0, 41.0, 60.0]),            # crash ratio 2.33 not near integer; r<0.6 never
        _bars([5.0, 5.1, 51.0, 50.2, 49.0, 48.5, 50.5, 51.0]),         # 1:10 reverse split
        _bars([10.0, 10.2, 27.5, 27.0, 26.8, 27.3, 28.0]),             # jump up 2.7x: r<0.6 but not a reverse split
        _bars([30.0, 30.0, 30.6, 10.1, 10.3, 10.0, 3.4, 3.3],
              [900.0, 0.0, 800.0, 2400.0, 0.0, 2500.0, 7000.0, 7100.0]),  # halted days (continue) + two 3:1 splits
        _bars([50.0, 51.0]),                                           # minimum length
    ]
