"""End-of-season markdown planner for a retail category.

Given the SKUs of a category (stock on hand, baseline weekly demand, price
elasticity, weeks left in the season, current price and the brand's minimum
advertised price), pick the shallowest storewide markdown level whose
projected sell-through reaches the target.  Deeper levels are never tried once
one of them would break a minimum advertised price.  Big categories are
planned on the SKUs that hold the most stock.
"""
import torch
import torch.nn as nn


class MarkdownPlanner(nn.Module):
    levels = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5)

    def __init__(self, target=0.85, max_skus=64):
        super().__init__()
        self.target = target
        self.max_skus = max_skus
        # learned correction of the baseline demand forecast (+-5 %)
        self.demand_adj = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, skus):
        # skus: [N, 6] = stock, weekly demand, elasticity, weeks left, price, min advertised price
        if skus.shape[0] > self.max_skus:
            top = skus[:, 0].topk(self.max_skus).indices
            skus = skus[top]
        stock, demand, elasticity, weeks, price, map_price = skus.unbind(-1)
        feats = torch.stack([demand / 10.0, elasticity, weeks / 10.0, price / 100.0], dim=-1)
        adj = 1.0 + 0.05 * torch.tanh(self.demand_adj(feats)).squeeze(-1)

        chosen = torch.zeros(())
        sell_through = torch.zeros(())
        for level in self.levels:
            if (price * (1.0 - level) < map_price).any():
                # minimum advertised price: this level (and every deeper one) is not allowed
                break
            lift = (1.0 - level) ** (-elasticity)
            sold = torch.minimum(demand * lift * adj * weeks, stock)
            sell_through = sold.sum() / stock.sum()
            chosen = torch.tensor(level)
            if sell_through >= self.target:
                break
        return chosen, sell_through


def model():
    torch.manual_seed(23)
    return MarkdownPlanner().eval()


def _make_category(n, demand_per_stock, weeks, map_frac, seed):
    g = torch.Generator().manual_seed(seed)
    stock = 40.0 + 160.0 * torch.rand(n, generator=g)
    demand = stock * demand_per_stock / weeks * (0.8 + 0.4 * torch.rand(n, generator=g))
    elasticity = 1.5 + 1.0 * torch.rand(n, generator=g)
    price = 20.0 + 80.0 * torch.rand(n, generator=g)
    return (torch.stack([stock, demand, elasticity, torch.full((n,), float(weeks)), price,
                         price * map_frac], dim=1),)


def example_inputs():
    # needs a mid-depth markdown, no MAP restriction
    return _make_category(12, 0.55, 6, 0.0, 0)


def dynamic_shapes():
    return ({0: torch.export.Dim("skus", min=2, max=1024)},)


def verify_inputs():
    return [
        # target met at an intermediate level (break on target)
        example_inputs(),
        # strong demand: target met at full price (first level)
        _make_category(5, 1.1, 8, 0.0, 1),
        # weak demand, MAP at 85 % of price: stops before the 20 % level (break on MAP)
        _make_category(7, 0.4, 4, 0.85, 2),
        # hopeless demand: every level tried, loop completes, deepest level kept
        _make_category(3, 0.05, 3, 0.0, 3),
        # large category (80 SKUs > 64): planned on the top-stock SKUs
        _make_category(80, 0.6, 5, 0.0, 4),
    ]
