"""End-of-day zero-balance cash sweep for a corporate treasury header account."""
import torch
import torch.nn as nn
from torch.export import Dim

CREDIT_RATE, DEBIT_RATE = 0.03, 0.07  # annual, on the header / notional pool


class CashSweep(nn.Module):
    def __init__(self, max_physical=16):
        super().__init__()
        self.max_physical = max_physical  # bank only books this many sweep transfers per day
        # learned intraday buffer per account (payments that clear after the sweep cut-off)
        self.buffer_net = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1), nn.Softplus())

    def forward(self, balances, targets, od_limits):
        # balances / targets / od_limits: (A,) per participating account, in header currency
        n = balances.shape[0]
        feats = torch.stack([balances, targets, od_limits], 1) / 1e5
        want = targets + 1e4 * self.buffer_net(feats).squeeze(1)
        if n > self.max_physical:
            # too many entities: notional pooling, interest on the net position only
            net = (balances - want).sum()
            rate = CREDIT_RATE if net > 0 else DEBIT_RATE
            return torch.zeros(n), net * rate / 360.0, torch.tensor(0)
        # 1) sweep every surplus up to the header
        pool = torch.zeros(())
        transfers = []
        for i in range(n):
            surplus = balances[i] - want[i]
            if surplus > 0:
                transfers.append(-surplus)
                pool = pool + surplus
            else:
                transfers.append(torch.zeros(()))
        # 2) fund deficits from the header, largest first (stable: equal deficits keep order)
        deficit = (want - balances).clamp(min=0.0)
        order = torch.sort(deficit, descending=True, stable=True).indices
        breaches = 0
        for k in range(n):
            i = int(order[k])
            if deficit[i] <= 0:
                break  # sorted, so nobody after this needs funding
            give = torch.minimum(deficit[i], pool)
            transfers[i] = give
            pool = pool - give
            if deficit[i] > give and balances[i] + give < -od_limits[i]:
                breaches += 1  # account left beyond its overdraft line
        return torch.stack(transfers), pool * CREDIT_RATE / 360.0, torch.tensor(breaches)


def model():
    torch.manual_seed(6007)
    return CashSweep().eval()


def _accounts(n, seed, mean=0.0, spread=2e5):
    g = torch.Generator().manual_seed(seed)
    balances = mean + spread * torch.randn(n, generator=g)
    targets = 5e4 * torch.rand(n, generator=g)
    od = 1e5 * torch.rand(n, generator=g)
    return balances, targets, od


def example_inputs():
    return _accounts(6, 1)


def dynamic_shapes():
    a = Dim("accounts", min=2, max=24)
    return ({0: a}, {0: a}, {0: a})


def verify_inputs():
    return [
        _accounts(6, 1),                   # example: mixed surpluses / deficits, header funds all
        _accounts(2, 2, mean=-4e5),        # min accounts: nothing to sweep, OD breaches
        _accounts(24, 3, mean=2e5),        # max accounts: notional pool, net credit
        _accounts(20, 4, mean=-3e5),       # notional pool, net debit
        _accounts(8, 5, mean=9e5),         # all in surplus: funding loop stops at once
        _accounts(16, 6, mean=-5e4),       # largest physical set: header runs dry part-way
    ]
