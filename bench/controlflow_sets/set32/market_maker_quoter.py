"""Inventory-aware market-making quotes (Avellaneda-Stoikov style).

Kind T. Constructs: 1, 2, 7, 8.
Given the recent mid-price ticks, the signed traded volume per tick and
the desk's current inventory, produce [bid, ask, bid_size, ask_size].
Realized volatility falls back to a desk default when there are too few
ticks; a small learned head turns order-flow imbalance into a short-term
alpha that shifts the reservation price.  Quotes are pulled in a
volatility halt, and one side is switched off at the inventory limit.
"""
import math

import torch
import torch.nn as nn


def realized_vol(mid, min_ticks=20, default=2e-4):
    log_ret = torch.diff(torch.log(mid))
    if log_ret.shape[0] < min_ticks:
        # not enough history for a stable estimate
        return log_ret.new_tensor(default)
    return log_ret.std()


def order_flow_imbalance(signed_volume):
    total = signed_volume.abs().sum()
    if total < 0.5:
        return torch.zeros_like(total)  # nothing traded (sizes are whole lots): neutral
    return signed_volume.sum() / total


class MarketMakerQuoter(nn.Module):
    def __init__(self, gamma=0.1, kappa=1.5, horizon=50.0, inv_limit=100.0,
                 base_size=10.0, vol_halt=5e-3):
        super().__init__()
        self.gamma, self.kappa, self.horizon = gamma, kappa, horizon
        self.inv_limit, self.base_size, self.vol_halt = inv_limit, base_size, vol_halt
        self.alpha_head = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))

    def forward(self, mid, signed_volume, inventory):
        s = mid[-1]
        sigma = realized_vol(mid)
        if sigma > self.vol_halt:
            # volatility halt: pull both quotes
            zero = torch.zeros(())
            return torch.stack([s, s, zero, zero])

        ofi = order_flow_imbalance(signed_volume)
        momentum = torch.log(mid[-1] / mid[0])
        feats = torch.stack([ofi, momentum * 100.0, sigma * 1e3])
        alpha = 1e-4 * s * torch.tanh(self.alpha_head(feats)).squeeze()

        q = inventory.squeeze()
        var = (sigma * s) ** 2
        reservation = s + alpha - q * self.gamma * var * self.horizon
        half_spread = 0.5 * (self.gamma * var * self.horizon
                             + 2.0 / self.gamma * math.log(1 + self.gamma / self.kappa) * 1e-2)
        bid = reservation - half_spread
        ask = reservation + half_spread

        bid_size = torch.full((), self.base_size)
        ask_size = torch.full((), self.base_size)
        if q >= self.inv_limit:
            bid_size = torch.zeros(())   # too long: stop buying
        elif q <= -self.inv_limit:
            ask_size = torch.zeros(())   # too short: stop selling
        return torch.stack([bid, ask, bid_size, ask_size])


def model():
    torch.manual_seed(3206)
    return MarketMakerQuoter().eval()


def _book(seed, n, vol, inventory, flow_bias=0.0, traded=True):
    g = torch.Generator().manual_seed(seed)
    mid = 100.0 * torch.exp(torch.cumsum(vol * torch.randn(n, generator=g), 0))
    vol_ = torch.randint(1, 20, (n,), generator=g).float()
    sign = torch.where(torch.rand(n, generator=g) < 0.5 + flow_bias, 1.0, -1.0)
    signed = sign * vol_ if traded else torch.zeros(n)
    return mid, signed, torch.tensor([inventory])


def example_inputs():
    # normal market, flat-ish inventory, full tick history
    return _book(1, 64, 1e-4, 20.0)


def dynamic_shapes():
    t = torch.export.Dim("ticks", min=2, max=512)
    return ({0: t}, {0: t}, None)


def verify_inputs():
    return [
        example_inputs(),                          # both sides quoted, vol estimated from history
        _book(2, 10, 1e-4, 0.0),                   # short history -> default vol
        _book(3, 128, 2e-2, 0.0),                  # volatility halt -> early return
        _book(4, 64, 1e-4, 150.0, flow_bias=0.3),  # long past limit -> bid pulled
        _book(5, 40, 1e-4, -130.0, flow_bias=-0.3),# short past limit -> ask pulled (elif)
        _book(6, 30, 1e-4, 5.0, traded=False),     # no trades: imbalance helper early return
        _book(7, 2, 1e-4, -50.0),                  # two ticks: default vol
    ]
