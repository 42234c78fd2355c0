"""Convertible bond soft-call test and holder value.

The indenture lets the issuer call the bond once the stock has closed above
130 % of the conversion price on at least 20 of any 30 consecutive trading
days. Inputs: daily closes and the bond terms (conversion price, annual
coupon rate, days of accrued interest). Outputs: whether the bond is
callable, the holder's value per 1000 par, and the best 30-day hit count.
"""
import torch
import torch.nn as nn


class SoftCallMonitor(nn.Module):
    def __init__(self, include_accrued=True):
        super().__init__()
        self.lookback = 30
        self.required_days = 20
        self.trigger_pct = 1.30
        self.par = 1000.0
        self.include_accrued = include_accrued
        # learned time value of the conversion option from recent vol / moneyness
        self.option_value = nn.Sequential(nn.Linear(3, 16), nn.Softplus(), nn.Linear(16, 1), nn.Softplus())

    def forward(self, closes, terms):
        conv_price, coupon_rate, days_accrued = terms.unbind()
        accrued = self.par * coupon_rate * days_accrued / 360.0 if self.include_accrued else torch.zeros(())
        redemption = self.par + accrued
        parity = self.par / conv_price * closes[-1]

        if closes.shape[0] < self.lookback:
            # not enough trading history since issue: the call is not yet possible
            return torch.zeros((), dtype=torch.long), torch.maximum(parity, redemption), torch.zeros(())

        above = (closes > self.trigger_pct * conv_price).float()
        hits = above.unfold(0, self.lookback, 1).sum(1).max()

        rets = torch.log(closes[1:] / closes[:-1])
        feats = torch.stack([rets.std() * 16.0, parity / redemption, hits / self.lookback])
        time_value = self.option_value(feats).squeeze(0) * 10.0
        if hits >= self.required_days:
            # issuer will call: holders convert or take cash, option value is gone
            value = torch.maximum(parity, redemption)
            called = torch.ones((), dtype=torch.long)
        else:
            value = torch.maximum(parity, redemption) + time_value
            called = torch.zeros((), dtype=torch.long)
        return called, value, hits


def model():
    torch.manual_seed(5506)
    return SoftCallMonitor().eval()


def _path(days, start, drift, seed):
    g = torch.Generator().manual_seed(seed)
    steps = drift + 0.02 * torch.randn(days, generator=g)
    closes = start * torch.exp(torch.cumsum(steps, 0))
    return closes, torch.tensor([40.0, 0.0175, 45.0])


def example_inputs():
    return _path(120, 45.0, 0.004, 1)


def dynamic_shapes():
    days = torch.export.Dim("days", min=2, max=400)
    return ({0: days}, None)


def verify_inputs():
    return [
        example_inputs(),              # rally above 52: callable, holders convert
        _path(2, 41.0, 0.0, 2),        # days=min: too little history -> early return
        _path(400, 38.0, 0.0005, 3),   # days=max, stock stays near/below trigger -> not called, time value
        _path(30, 56.0, 0.001, 4),     # exactly one 30-day window, all days above -> called
        _path(29, 60.0, 0.0, 5),       # one day short of the lookback -> early return
    ]
