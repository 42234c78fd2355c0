"""Ascending clock auction for spectrum licences (simplified FCC-style).

K licence products each have a supply (number of blocks) and a clock price.  Every round each
bidder reports demand: it ranks products by surplus (value - price) and greedily demands one
block of each profitable product it can still afford with its budget.  Prices of products with
excess demand rise by a fixed increment; the auction closes when no product is over-demanded (or
the round limit hits).  If nobody values any product above the reserve, no auction is held.
"""
import torch
import torch.nn as nn
from torch.export import Dim


def bidder_demand(values, prices, budget):
    surplus = values - prices
    order = torch.argsort(surplus, descending=True)
    demand = torch.zeros_like(prices)
    spent = torch.zeros(())
    for j in range(order.shape[0]):
        k = order[j]
        if surplus[k] <= 0:
            break  # sorted: nothing further is profitable
        if spent + prices[k] > budget:
            continue  # cannot afford this one; a cheaper product may still fit
        demand[k] = 1.0
        spent = spent + prices[k]
    return demand


class ClockAuction(nn.Module):
    def __init__(self, reserve=4.0, increment=0.1, max_rounds=40):
        super().__init__()
        self.reserve = reserve
        self.increment = increment
        self.max_rounds = max_rounds

    def forward(self, values, budgets, supply):
        prices = torch.full((values.shape[1],), self.reserve)
        if (values.amax(0) <= self.reserve).all():
            return torch.zeros(values.shape), prices, torch.zeros(())
        excess = torch.ones(values.shape[1])
        rounds = 0
        demand = torch.zeros(values.shape)
        while (excess > 0).any():
            per_bidder = []
            for b in range(values.shape[0]):
                per_bidder.append(bidder_demand(values[b], prices, budgets[b]))
            demand = torch.stack(per_bidder)
            excess = demand.sum(0) - supply
            if rounds >= self.max_rounds:
                break
            prices = prices * (1.0 + self.increment * (excess > 0).float())
            rounds += 1
        return demand, prices, torch.tensor(float(rounds))


def model():
    return ClockAuction().eval()


def _market(n_bidders, n_products, seed, lo=5.0, hi=20.0, budget=(15.0, 40.0)):
    g = torch.Generator().manual_seed(seed)
    values = lo + (hi - lo) * torch.rand(n_bidders, n_products, generator=g)
    budgets = budget[0] + (budget[1] - budget[0]) * torch.rand(n_bidders, generator=g)
    return values, budgets


def example_inputs():
    v, b = _market(5, 3, 0)
    return (v, b, torch.tensor([2, 1, 2]))


def dynamic_shapes():
    bidders = Dim("bidders", min=2, max=32)
    products = Dim("products", min=2, max=16)
    return ({0: bidders, 1: products}, {0: bidders}, {0: products})


def verify_inputs():
    v1, b1 = _market(3, 4, 1, lo=1.0, hi=3.5)
    v2, b2 = _market(8, 5, 2, budget=(8.0, 20.0))
    v3, b3 = _market(4, 2, 3)
    v4, b4 = _market(4, 2, 4, lo=500.0, hi=900.0, budget=(4000.0, 8000.0))
    return [
        example_inputs(),                   # 16 rounds of price rises until demand <= supply
        (v1, b1, torch.tensor([1, 1, 1, 1])),       # all values below reserve: no auction (early return)
        (v2, b2, torch.tensor([1, 2, 1, 1, 2])),    # tight budgets: bidders skip unaffordable products (continue)
        (v3, b3, torch.tensor([4, 4])),             # supply covers everyone: closes after the first round
        (v4, b4, torch.tensor([1, 1])),             # rich bidders, values far above reserve: round limit -> break
    ]
