"""Dollar-cost-averaging backtest with dip buying.

Every `every_n_days` trading days the plan invests a base amount; it doubles
or triples the buy after a 10% / 20% drawdown from the recent high and skips
the buy when the price is stretched far above its recent average.  When the
cash runs short the last buy is partial, and the plan stops once the account
is empty.

KIND T.  Constructs: 1 (if/elif chain on drawdown, if on cash), 5 (for over
the dynamic number of days, list.append + torch.stack), 6 (continue / break
on tensor conditions), 9 (plain Python schedule: t % every_n_days, static
lookback slicing, ternary on an empty Python list).
"""
import torch
import torch.nn as nn
from torch.export import Dim

KIND = "T"
CONSTRUCTS = (1, 5, 6, 9)


class DcaDipBuyer(nn.Module):
    def __init__(self, base_amount=100.0, every_n_days=5, lookback=20, stretch=1.15):
        super().__init__()
        self.base_amount = base_amount
        self.every_n_days = every_n_days
        self.lookback = lookback
        self.stretch = stretch

    def forward(self, prices, cash):
        # prices: (T,) daily closes; cash: () starting cash
        units = torch.zeros(())
        buys = []
        for t in range(prices.shape[0]):
            if t % self.every_n_days != 0:
                continue
            price = prices[t]
            window = prices[max(0, t - self.lookback + 1): t + 1]
            drawdown = 1.0 - price / window.max()
            amount = torch.tensor(self.base_amount)
            if drawdown > 0.2:
                amount = amount * 3.0
            elif drawdown > 0.1:
                amount = amount * 2.0
            elif price > self.stretch * window.mean():
                # chasing a spike: skip this week
                buys.append(torch.zeros(()))
                continue
            if cash < amount:
                if cash < 1.0:
                    break
                amount = cash
            units = units + amount / price
            cash = cash - amount
            buys.append(amount)
        spent = torch.stack(buys) if buys else prices.new_zeros(0)
        value = units * prices[-1] + cash
        return spent, units, cash, value


def model():
    torch.manual_seed(61007)
    return DcaDipBuyer().eval()


def make_prices(anchors, seed=0):
    """Piecewise-linear path through (day, price) anchors with tiny noise."""
    g = torch.Generator().manual_seed(seed)
    parts = []
    for (d0, p0), (d1, p1) in zip(anchors[:-1], anchors[1:]):
        parts.append(torch.linspace(p0, p1, d1 - d0 + 1)[:-1])
    parts.append(torch.tensor([anchors[-1][1]]))
    path = torch.cat(parts)
    return path * (1.0 + 0.002 * torch.randn(path.shape[0], generator=g))


def example_inputs():
    # gentle uptrend, plenty of cash: a plain 100 buy every 5 days
    return (make_prices([(0, 50.0), (29, 56.0)], seed=1), torch.tensor(2000.0))


def dynamic_shapes():
    return ({0: Dim("days", min=2, max=1024)}, None)


def verify_inputs():
    return [
        # plain buys only, loop runs to the end
        example_inputs(),
        # day 0 buy 100; crash to -30% by day 5 -> triple buy of 300 with only 250 left
        # -> partial buy; day 10 cash 0 < 1 -> break
        (make_prices([(0, 100.0), (5, 70.0), (15, 72.0)], seed=2), torch.tensor(350.0)),
        # -14% dip at day 10 -> double buy; spike +40% at day 20 -> skipped (stretched);
        # day 25 back to normal
        (make_prices([(0, 80.0), (10, 68.0), (15, 70.0), (19, 71.0), (20, 99.0),
                      (21, 72.0), (26, 73.0)], seed=3), torch.tensor(5000.0)),
        # account empty from the start: break on day 0, nothing bought
        (make_prices([(0, 20.0), (7, 21.0)], seed=4), torch.tensor(0.5)),
        # only two days: one buy, loop ends
        (torch.tensor([10.0, 10.5]), torch.tensor(1000.0)),
    ]
