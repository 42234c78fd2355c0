"""Dividend reinvestment (DRIP) backtest over weekly closes: withholding tax on
dividends, whole-share reinvestment while cash covers a share, trading halts
skipped, and a trailing drawdown stop that liquidates and ends the run early.
A small learned head forecasts next-week return from the last few returns.

Kind X. Constructs: 1, 2, 4, 5, 6, 8.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class DripBacktest(nn.Module):
    def __init__(self, initial_shares=100.0, withholding=0.15, stop_loss=0.30, lookback=4):
        super().__init__()
        self.initial_shares = initial_shares
        self.withholding = withholding
        self.stop_loss = stop_loss
        self.lookback = lookback
        self.forecast = nn.Sequential(nn.Linear(lookback, 8), nn.Tanh(), nn.Linear(8, 1))

    def forward(self, prices, dividends):
        # prices: [T] weekly closes (-1 = trading halted), dividends: [T] cash per share paid that week
        shares = torch.tensor(self.initial_shares)
        cash = torch.zeros(())
        peak = torch.zeros(())
        values = []
        last_price = prices[0]
        stopped = torch.zeros(())
        for t in range(prices.shape[0]):
            p = prices[t]
            if p <= 0:
                values.append(values[-1] if values else torch.zeros(()))
                continue  # halted: no trade, carry last valuation
            if dividends[t] > 0:
                cash = cash + shares * dividends[t] * (1.0 - self.withholding)
            while cash >= p:
                cash = cash - p  # buy one whole share
                shares = shares + 1
            value = shares * p + cash
            peak = torch.maximum(peak, value)
            last_price = p
            if value < peak * (1.0 - self.stop_loss):
                cash = cash + shares * p
                shares = torch.zeros(())
                stopped = torch.ones(())
                values.append(value)
                break
            values.append(value)
        curve = torch.stack(values)
        window = curve[-(self.lookback + 1):]
        if window.shape[0] > self.lookback:
            rets = window[1:] / window[:-1].clamp_min(1e-6) - 1.0
            outlook = self.forecast(rets).squeeze()
        else:
            outlook = torch.zeros(())
        return curve, shares, cash, last_price, stopped, outlook


def model():
    torch.manual_seed(19)
    return DripBacktest().eval()


def _series(prices, divs=None):
    prices = torch.tensor(prices, dtype=torch.float32)
    d = torch.zeros_like(prices)
    for t, amount in (divs or {}).items():
        d[t] = amount
    return prices, d


def example_inputs():
    # quarterly dividend: 100 sh * 0.5 * 0.85 = 42.5 cash -> buys 2 shares at 20.3
    return _series([20.0, 20.3, 20.1, 20.6, 21.0, 20.8, 21.2, 21.5], {1: 0.5, 5: 0.1})


def dynamic_shapes():
    t = Dim("weeks", min=4, max=260)
    return ({0: t}, {0: t})


def verify_inputs():
    slow = [50.0 + 0.05 * k for k in range(260)]
    return [
        example_inputs(),  # while: 2 shares after first dividend, 0 after the small one (8.5 < 20.8)
        _series([30.0, 29.5, 31.0, 30.2], {2: 0.4}),  # min weeks: 34 cash >= 31 -> exactly 1 share; 3 < 4 returns -> no forecast
        _series([10.0, -1.0, -1.0, 10.5, 11.0, 6.0, 12.0], {3: 3.0}),  # halts (continue, twice); special dividend buys many; crash -> stop (break)
        _series([-1.0, 12.0, 12.5, 13.0, 12.0]),  # halted on the very first week (no valuation yet)
        _series(slow, {k: 0.6 for k in range(12, 260, 13)}),  # 5 years, quarterly dividends, no stop
    ]
