"""Actuarial claims reserving: chain-ladder on a cumulative run-off triangle with a learned tail.

Kind T. Constructs: 1, 2, 5, 6, 8.
"""
import torch
import torch.nn as nn


class ChainLadder(nn.Module):
    def __init__(self, tail_window=4, default_tail=1.02):
        super().__init__()
        self.tail_window = tail_window
        self.default_tail = default_tail
        # learned tail estimator from the last few development factors
        self.tail_head = nn.Sequential(nn.Linear(tail_window, 8), nn.Tanh(), nn.Linear(8, 1))

    def forward(self, tri):
        # tri[i, j]: cumulative paid claims of origin year i after j development years,
        # zero where not yet observed (below the anti-diagonal)
        n = tri.shape[0]
        factors = []
        for j in range(n - 1):
            rows = n - 1 - j
            den = tri[:rows, j].sum()
            if den.item() <= 0:
                # nothing reported yet at this age: no development information
                factors.append(torch.ones_like(den))
                continue
            f = tri[:rows, j + 1].sum() / den
            if f < 1.0:
                # negative development (salvage / subrogation) is floored at 1
                f = torch.ones_like(f)
            factors.append(f)
        f = torch.stack(factors)

        if n - 1 >= self.tail_window:
            recent = f[-self.tail_window:] - 1.0
            tail = 1.0 + 0.05 * torch.sigmoid(self.tail_head(recent)).squeeze(-1)
        else:
            tail = torch.full((), self.default_tail, dtype=tri.dtype)

        # cumulative development factor to ultimate for each age
        to_ult = torch.flip(torch.cumprod(torch.flip(f, [0]), 0), [0])
        to_ult = torch.cat([to_ult, torch.ones_like(to_ult[:1])]) * tail
        latest = torch.diagonal(torch.flip(tri, [1]))  # tri[i, n-1-i]
        ultimate = latest * torch.flip(to_ult, [0])
        reserve = ultimate - latest
        return reserve, reserve.sum(), f


def model():
    torch.manual_seed(36002)
    return ChainLadder().eval()


def _triangle(seed, n, zero_first_col=False, salvage_col=None):
    g = torch.Generator().manual_seed(seed)
    base = 100.0 + 50.0 * torch.rand(n, 1, generator=g)
    pattern = torch.tensor([0.45, 0.25, 0.12, 0.07, 0.04, 0.03, 0.02, 0.01, 0.005, 0.005, 0.004, 0.003])
    inc = base * pattern[:n] * (0.8 + 0.4 * torch.rand(n, n, generator=g))
    if zero_first_col:
        inc[:, 0] = 0.0
    if salvage_col is not None:
        inc[:, salvage_col] = -0.5 * inc[:, salvage_col - 1]
    cum = inc.cumsum(1)
    mask = (torch.arange(n)[:, None] + torch.arange(n)[None, :]) <= n - 1
    return cum * mask


def example_inputs():
    # 6 years: learned tail (n-1 >= 4), every column reported, no salvage
    return (_triangle(1, 6),)


def dynamic_shapes():
    years = torch.export.Dim("years", min=2, max=12)
    return ({0: years, 1: years},)


def verify_inputs():
    return [
        example_inputs(),                        # loop 5x, all factors >= 1, learned tail
        (_triangle(2, 8, salvage_col=3),),       # salvage column -> factor floored at 1
        (_triangle(3, 5, zero_first_col=True),), # first age has no reports -> `continue`
        (_triangle(4, 3),),                      # short triangle -> default tail
        (_triangle(5, 2),),                      # minimal triangle: loop runs once, default tail
    ]
