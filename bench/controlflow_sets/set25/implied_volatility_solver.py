"""Implied volatility of European call quotes (options desk pricing service).

Quotes that violate no-arbitrage bounds reject the whole batch.  Otherwise the
Brenner-Subrahmanyam approximation gives a starting volatility and Newton steps
on the Black-Scholes price refine it until every quote is matched within tol
(or max_iter).  When some quote has almost no vega, a damped step with clipped
vega is used for that round.  Returns the volatilities and the iteration count
(-1 for a rejected batch).
"""
import math

import torch
import torch.nn as nn
from torch.export import Dim


def norm_cdf(x):
    return 0.5 * (1.0 + torch.erf(x / math.sqrt(2.0)))


def black_scholes_call(spot, strike, T, r, vol):
    sqrt_t = T.sqrt()
    d1 = (torch.log(spot / strike) + (r + 0.5 * vol ** 2) * T) / (vol * sqrt_t)
    d2 = d1 - vol * sqrt_t
    price = spot * norm_cdf(d1) - strike * torch.exp(-r * T) * norm_cdf(d2)
    vega = spot * torch.exp(-0.5 * d1 ** 2) / math.sqrt(2.0 * math.pi) * sqrt_t
    return price, vega


class ImpliedVolSolver(nn.Module):
    def __init__(self, spot=100.0, rate=0.02):
        super().__init__()
        self.register_buffer("spot", torch.tensor(spot))
        self.rate = rate
        self.tol = 0.01
        self.max_iter = 3
        self.min_vega = 1.0
        self.vol_bounds = (0.01, 3.0)

    def forward(self, prices, strikes, maturities):
        lower = (self.spot - strikes * torch.exp(-self.rate * maturities)).clamp(min=0.0)
        if not ((prices > lower) & (prices < self.spot)).all():
            # a quote outside the no-arbitrage band: reject the whole batch
            return torch.zeros_like(prices), torch.tensor(-1)

        vol = math.sqrt(2.0 * math.pi) / maturities.sqrt() * prices / self.spot
        vol = vol.clamp(*self.vol_bounds)
        price, vega = black_scholes_call(self.spot, strikes, maturities, self.rate, vol)
        diff = price - prices
        it = 0
        while (diff.abs() > self.tol).any() and it < self.max_iter:
            if (vega < self.min_vega).any():
                step = 0.5 * diff / vega.clamp(min=self.min_vega)
            else:
                step = diff / vega
            vol = (vol - step).clamp(*self.vol_bounds)
            price, vega = black_scholes_call(self.spot, strikes, maturities, self.rate, vol)
            diff = price - prices
            it += 1
        return vol, torch.tensor(it)


def model():
    torch.manual_seed(0)
    return ImpliedVolSolver().eval()


def _make(seed, n, k_lo, k_hi, t_lo, t_hi, v_lo, v_hi, bad_quote=False, atm_forward=False):
    g = torch.Generator().manual_seed(seed)
    strikes = k_lo + (k_hi - k_lo) * torch.rand(n, generator=g)
    T = t_lo + (t_hi - t_lo) * torch.rand(n, generator=g)
    if atm_forward:
        strikes = 100.0 * torch.exp(0.02 * T)
    true_vol = v_lo + (v_hi - v_lo) * torch.rand(n, generator=g)
    prices, _ = black_scholes_call(torch.tensor(100.0), strikes, T, 0.02, true_vol)
    if bad_quote:
        prices[0] = 0.5 * (100.0 - strikes[0] * math.exp(-0.02 * T[0].item()))  # below intrinsic
    return prices, strikes, T


def example_inputs():
    return _make(0, 6, 80.0, 120.0, 0.25, 2.0, 0.15, 0.5)


def dynamic_shapes():
    quotes = Dim("quotes", min=2, max=256)
    return ({0: quotes}, {0: quotes}, {0: quotes})


def verify_inputs():
    return [
        _make(6, 8, 80.0, 120.0, 0.25, 2.0, 0.15, 0.5),     # mixed book: a few Newton steps
        _make(2, 4, 0.0, 0.0, 0.2, 0.3, 0.12, 0.16, atm_forward=True),  # ATM forward: guess already fits
        _make(3, 5, 97.0, 103.0, 0.5, 1.0, 0.3, 0.4),       # near the money: one step
        _make(0, 6, 112.0, 125.0, 0.1, 0.25, 0.2, 0.3),     # OTM, short dated: tiny vega, runs out of steps
        _make(5, 5, 60.0, 90.0, 0.5, 1.0, 0.2, 0.3, bad_quote=True),  # arbitrage quote: rejected
    ]
