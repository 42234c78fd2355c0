"""IPO book-building: clearing price discovery and share allocation.

Orders: limit price, shares demanded, investor type (1 institutional, 0
retail).  The offer price is the highest price in the marketed range at which
the book still covers the deal (bisection).  Retail gets a fixed tranche;
institutions are allocated pro rata weighted by a learned investor-quality
score.  Allocations are rounded down to board lots and leftover lots go to the
largest rounding remainders.
"""
import torch
import torch.nn as nn


class InvestorQuality(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1), nn.Sigmoid())

    def forward(self, orders):
        x = torch.stack([orders[:, 0] / 20.0, torch.log1p(orders[:, 1]) / 10.0, orders[:, 2]], dim=1)
        return 0.5 + self.net(x).squeeze(-1)


class BookBuilder(nn.Module):
    def __init__(self, price_low=14.0, price_high=17.0, retail_share=0.1, lot=100.0):
        super().__init__()
        self.price_low = price_low
        self.price_high = price_high
        self.retail_share = retail_share
        self.lot = lot
        self.quality = InvestorQuality()

    def demand_at(self, orders, price):
        return (orders[:, 1] * (orders[:, 0] >= price).float()).sum()

    def clearing_price(self, orders, offered):
        lo = torch.tensor(self.price_low)
        hi = torch.tensor(self.price_high)
        if self.demand_at(orders, hi) >= offered:
            return hi
        it = 0
        while hi - lo > 0.01 and it < 60:
            mid = (lo + hi) / 2
            if self.demand_at(orders, mid) >= offered:
                lo = mid
            else:
                hi = mid
            it += 1
        return lo

    def round_to_lots(self, raw):
        lots = torch.floor(raw / self.lot)
        remainder = raw / self.lot - lots
        return lots, remainder

    def pro_rata(self, demand, weights, shares):
        if demand.sum() <= 0:
            return torch.zeros_like(demand)
        raw = torch.minimum(shares * demand * weights / (demand * weights).sum(), demand)
        lots, remainder = self.round_to_lots(raw)
        leftover = torch.floor(shares / self.lot) - lots.sum()
        extra = []
        for _ in range(int(leftover.clamp(min=0, max=demand.shape[0]).item())):
            idx = remainder.argmax()
            if remainder[idx] <= 0:
                break
            extra.append(idx)
            remainder[idx] = -1.0
        if extra:
            lots[torch.stack(extra)] += 1
        return lots * self.lot

    def forward(self, orders, offered):
        if self.demand_at(orders, torch.tensor(self.price_low)) < offered:
            # undersubscribed: price at the bottom of the range, fill everyone
            return torch.tensor(self.price_low), orders[:, 1] * (orders[:, 0] >= self.price_low).float()
        price = self.clearing_price(orders, offered)
        eligible = (orders[:, 0] >= price).float()
        demand = orders[:, 1] * eligible
        retail = orders[:, 2] < 0.5
        retail_shares = offered * self.retail_share
        weights = self.quality(orders)
        alloc = torch.zeros_like(demand)
        alloc_retail = self.pro_rata(demand * retail.float(), torch.ones_like(weights), retail_shares)
        alloc_inst = self.pro_rata(demand * (~retail).float(), weights, offered - alloc_retail.sum())
        alloc = alloc + alloc_retail + alloc_inst
        return price, alloc


def model():
    torch.manual_seed(5119)
    return BookBuilder().eval()


def _book(n, seed, inst_frac=0.6):
    g = torch.Generator().manual_seed(seed)
    limit = 13.0 + 5.0 * torch.rand(n, generator=g)
    qty = torch.round(1000 + 200000 * torch.rand(n, generator=g) ** 3)
    inst = (torch.rand(n, generator=g) < inst_frac).float()
    return torch.stack([limit, qty, inst], dim=1)


def example_inputs():
    return (_book(40, 1), torch.tensor(1_500_000.0))


def dynamic_shapes():
    return ({0: torch.export.Dim("orders", min=2, max=300)}, None)


def verify_inputs():
    return [
        # example: oversubscribed inside the range -> bisection, lot rounding with leftovers
        example_inputs(),
        # min: two orders, undersubscribed -> early return at low price
        (torch.tensor([[15.0, 500.0, 1.0], [14.5, 700.0, 0.0]]), torch.tensor(10_000.0)),
        # hot deal: book covers the deal at the top of the range -> price = high
        (torch.tensor([[18.0, 50_000.0, 1.0], [18.0, 30_000.0, 1.0], [17.5, 40_000.0, 0.0]]),
         torch.tensor(60_000.0)),
        # institutional-only book: retail tranche has no demand -> zero retail allocation
        (torch.tensor([[16.0, 9_050.0, 1.0], [15.0, 7_070.0, 1.0], [14.2, 3_030.0, 1.0]]),
         torch.tensor(12_000.0)),
        # max: 300 orders
        (_book(300, 2), torch.tensor(8_000_000.0)),
    ]
