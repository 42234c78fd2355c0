"""Options desk: discrete delta hedging of a short call with a learned no-trade band and a loss limit.

Kind X. Constructs: 1, 2, 5, 6, 7, 9.
"""
import math

import torch
import torch.nn as nn


class DeltaHedger(nn.Module):
    def __init__(self, strike=100.0, dt=1.0 / 252, base_band=0.02, cost_bps=5.0, max_loss=6.0,
                 include_costs=True):
        super().__init__()
        self.strike = strike
        self.dt = dt
        self.base_band = base_band
        self.cost = cost_bps * 1e-4
        self.max_loss = max_loss
        self.include_costs = include_costs
        # Whalley-Wilmott style band width as a learned function of (vol, moneyness)
        self.band_net = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1))

    def _black_scholes(self, s, vol, tau):
        sd = vol * math.sqrt(tau)
        d1 = (torch.log(s / self.strike) + 0.5 * sd * sd) / sd
        if d1 > 5.0:
            # deep in the money: the call is just a forward
            return s - self.strike, torch.ones_like(s)
        if d1 < -5.0:
            # deep out of the money: worthless, no hedge
            return torch.zeros_like(s), torch.zeros_like(s)
        d2 = d1 - sd
        n1 = 0.5 * (1 + torch.erf(d1 / math.sqrt(2.0)))
        n2 = 0.5 * (1 + torch.erf(d2 / math.sqrt(2.0)))
        return s * n1 - self.strike * n2, n1

    def forward(self, spot, iv):
        # spot: underlying mid per tick; iv: implied vol per tick, -1 where no quote came in
        n = spot.shape[0]
        last_vol = iv[0].clamp(min=0.05)
        premium, _ = self._black_scholes(spot[0], last_vol, n * self.dt)
        cash = premium
        pos = torch.zeros_like(premium)
        trades = torch.zeros_like(premium)
        positions = torch.zeros_like(spot)
        for t in range(n):
            s = spot[t]
            tau = (n - t) * self.dt
            if iv[t] > 0:
                last_vol = iv[t]
            price, delta = self._black_scholes(s, last_vol, tau)
            if cash + pos * s - price < -self.max_loss:
                break  # desk loss limit hit: stop hedging, hand the book to risk
            feats = torch.stack([last_vol, torch.log(s / self.strike)])
            band = self.base_band * (0.5 + torch.sigmoid(self.band_net(feats))).squeeze(-1)
            if (delta - pos).abs() < band:
                positions[t] = pos
                continue  # inside the no-trade band
            trade = delta - pos
            cash = cash - trade * s
            if self.include_costs:  # static
                cash = cash - trade.abs() * s * self.cost
            pos = delta
            trades = trades + 1
            positions[t] = pos
        payoff = (spot[-1] - self.strike).clamp(min=0)
        pnl = cash + pos * spot[-1] - payoff
        return pnl, trades, positions


def model():
    torch.manual_seed(36013)
    return DeltaHedger().eval()


def _path(seed, n, s0=100.0, vol=0.2, drift=0.0, jump_at=None, jump=0.0, missing=()):
    g = torch.Generator().manual_seed(seed)
    rets = drift / 252 + vol / math.sqrt(252) * torch.randn(n, generator=g)
    rets[0] = 0.0
    if jump_at is not None:
        rets[jump_at] += jump
    spot = s0 * torch.exp(torch.cumsum(rets, 0))
    iv = vol + 0.01 * torch.randn(n, generator=g)
    for i in missing:
        iv[i] = -1.0
    return spot, iv


def example_inputs():
    # one month around the money: trades and no-trade ticks
    return _path(1, 21)


def dynamic_shapes():
    ticks = torch.export.Dim("ticks", min=2, max=2048)
    return ({0: ticks}, {0: ticks})


def verify_inputs():
    return [
        example_inputs(),                                    # trades and band `continue`s
        _path(7, 30, missing=(3, 4, 17)),                    # missing vol quotes -> keep last vol
        _path(3, 25, jump_at=12, jump=0.35),                 # gap up -> loss limit -> break
        _path(4, 10, s0=160.0),                              # deep in the money (d1 > 5)
        _path(5, 10, s0=55.0),                               # deep out of the money (d1 < -5), never trades
        _path(6, 2),                                         # two ticks
    ]
