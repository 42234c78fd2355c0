"""Streaming-royalty statement for an artist contract with an escalating rate card.

Monthly streams (thousands) per track are priced on cumulative tiers
(the rate per thousand streams steps up after 1M and 5M lifetime streams),
a month with a hit track (>500k streams on one track) earns a 10 % bonus,
and the label recoups the advance before anything is paid out. A small GRU
forecasts next month's streams to project the next payout.

Constructs: 1, 2, 5, 6, 7, 9
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim


class RoyaltyStatement(nn.Module):
    def __init__(self):
        super().__init__()
        self.tier_upper = [1000.0, 5000.0, float("inf")]   # cumulative thousands of streams
        self.tier_rate = [3.0, 3.5, 4.0]                    # dollars per thousand streams
        self.hit_threshold = 500.0
        self.gru = nn.GRU(1, 8, batch_first=True)
        self.out = nn.Linear(8, 1)

    def tier_revenue(self, before, after):
        rev = torch.zeros(())
        lo = before
        for upper, rate in zip(self.tier_upper, self.tier_rate):
            if lo >= upper:
                continue  # this tier was exhausted in earlier months
            hi = torch.minimum(after, torch.tensor(upper))
            rev = rev + (hi - lo) * rate
            lo = hi
            if after <= upper:
                break
        return rev

    def forecast_next(self, monthly):
        h, _ = self.gru(torch.log1p(monthly).view(1, -1, 1))
        return F.softplus(self.out(h[0, -1])).squeeze(0) * monthly[-1]

    def forward(self, streams, advance):
        monthly = streams.sum(0)
        cum = torch.zeros(())
        unrecouped = advance[0]
        payouts = []
        for m in range(streams.shape[1]):
            rev = self.tier_revenue(cum, cum + monthly[m])
            cum = cum + monthly[m]
            if (streams[:, m] > self.hit_threshold).any():
                rev = rev * 1.1
            if unrecouped > 0:
                if rev <= unrecouped:
                    unrecouped = unrecouped - rev
                    pay = torch.zeros(())
                else:
                    pay = rev - unrecouped
                    unrecouped = torch.zeros(())
            else:
                pay = rev
            payouts.append(pay)

        nxt = self.forecast_next(monthly)
        projected = self.tier_revenue(cum, cum + nxt)
        return torch.stack(payouts), unrecouped, projected


def model():
    torch.manual_seed(67)
    return RoyaltyStatement().eval()


def _statement(rows, advance):
    return torch.tensor(rows, dtype=torch.float32), torch.tensor([advance], dtype=torch.float32)


def example_inputs():
    # 3 tracks x 6 months; advance recouped in month 3, one hit month, crosses the 1M tier
    return _statement([[150.3, 140.7, 620.2, 120.9, 110.4, 100.8],
                       [210.6, 230.1, 180.5, 170.2, 160.7, 150.3],
                       [90.2, 85.9, 80.4, 75.1, 70.6, 65.3]], 4000.0)


def dynamic_shapes():
    return ({0: Dim("tracks", min=2, max=64), 1: Dim("months", min=2, max=48)}, None)


def verify_inputs():
    return [
        example_inputs(),  # recoupment (rev <= unrecouped), recouped mid-month (else), then unrecouped == 0; bonus taken / not
        # viral release: month 1 stays in tier 1, month 2 jumps over 1M and 5M in one go (3 tier steps),
        # later months skip exhausted tiers (continue twice); no advance left after month 2
        _statement([[400.3, 3900.7, 800.1, 700.9], [300.2, 1200.4, 650.3, 500.6], [10.1, 20.3, 30.7, 40.2]], 1500.0),
        _statement([[12.5, 14.1], [30.2, 28.7]], 0.0),  # no advance at all: unrecouped > 0 never true, single tier
    ]
