"""American option pricer on a Cox-Ross-Rubinstein binomial tree, with early-exercise boundary.

Calls without dividends are never exercised early, so they use Black-Scholes directly. Puts walk
the tree backwards, comparing continuation and exercise value at every node, and record the first
(latest-time) step at which exercise is optimal somewhere. The number of tree steps comes from a
tensor input; big batches use a coarser tree to meet the latency budget. A small learned smile
model scales the quoted vol by at most +-5%.
"""
import math

import torch
import torch.nn as nn


def norm_cdf(x):
    return 0.5 * (1.0 + torch.erf(x / math.sqrt(2.0)))


def black_scholes_call(s, k, vol, t, r):
    d1 = (torch.log(s / k) + (r + 0.5 * vol * vol) * t) / (vol * torch.sqrt(t))
    d2 = d1 - vol * torch.sqrt(t)
    return s * norm_cdf(d1) - k * torch.exp(-r * t) * norm_cdf(d2)


class AmericanBinomial(nn.Module):
    def __init__(self, max_batch_fine=8):
        super().__init__()
        self.max_batch_fine = max_batch_fine
        self.smile = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1))

    def forward(self, contracts, rate, n_steps):
        # contracts: (B, 5) spot, strike, vol, maturity (y), is_call; rate: (1,); n_steps: (1,) int64
        n = int(n_steps.item())
        if contracts.shape[0] > self.max_batch_fine:
            n = max(n // 2, 2)
        r = rate.reshape(())
        moneyness = torch.log(contracts[:, 0] / contracts[:, 1])
        vols = contracts[:, 2] * (1.0 + 0.05 * torch.tanh(self.smile(
            torch.stack([moneyness, contracts[:, 3]], dim=1)))).squeeze(1)

        prices, boundaries = [], []
        for b in range(contracts.shape[0]):
            s0, k, _, t, is_call = contracts[b]
            vol = vols[b]
            if is_call > 0.5:
                prices.append(black_scholes_call(s0, k, vol, t, r))
                boundaries.append(torch.tensor(-1.0))
                continue
            dt = t / n
            u = torch.exp(vol * torch.sqrt(dt))
            d = 1.0 / u
            p = (torch.exp(r * dt) - d) / (u - d)
            disc = torch.exp(-r * dt)
            j = torch.arange(n + 1, dtype=contracts.dtype)
            values = torch.relu(k - s0 * u ** (n - 2 * j))
            boundary = torch.tensor(-1.0)
            for step in range(n - 1, -1, -1):
                jj = j[: step + 1]
                cont = disc * (p * values[: step + 1] + (1 - p) * values[1: step + 2])
                exercise = k - s0 * u ** (step - 2 * jj)
                values = torch.maximum(cont, exercise)
                if boundary < 0 and (exercise > cont + 1e-3).any():
                    boundary = torch.tensor(float(step))
            prices.append(values[0])
            boundaries.append(boundary)
        return torch.stack(prices), torch.stack(boundaries)


def model():
    torch.manual_seed(48014)
    return AmericanBinomial().eval()


def example_inputs():
    return (torch.tensor([[100.0, 105.0, 0.25, 0.5, 0.0],    # ATM-ish put: early exercise region exists
                          [100.0, 95.0, 0.20, 1.0, 1.0],     # call: Black-Scholes shortcut
                          [100.0, 60.0, 0.15, 0.25, 0.0]]),  # deep OTM put: never exercised early
            torch.tensor([0.05]), torch.tensor([40]))


def dynamic_shapes():
    return ({0: torch.export.Dim("contracts", min=2, max=32)}, None, None)


def verify_inputs():
    big = torch.tensor([[90.0 + 2 * i, 100.0, 0.3, 0.75, float(i % 2)] for i in range(10)])
    return [
        example_inputs(),  # put with boundary, call shortcut (continue), put without early exercise
        (big, torch.tensor([0.03]), torch.tensor([30])),  # 10 contracts > 8 -> coarse tree (15 steps)
        (torch.tensor([[50.0, 52.0, 0.4, 2.0, 0.0], [50.0, 52.0, 0.4, 2.0, 1.0]]), torch.tensor([0.08]),
         torch.tensor([3])),  # tiny tree (3 steps): backward loop runs 3 times
        (torch.tensor([[100.0, 100.0, 0.2, 1.0, 1.0], [120.0, 100.0, 0.2, 1.0, 1.0]]), torch.tensor([0.05]),
         torch.tensor([50])),  # calls only: the tree loop never runs
    ]
