"""FIFO cost-of-goods-sold with inventory cost layers.

Purchase lots (quantity, unit cost, age in days) are consumed oldest first by
a sequence of sales. Each sale's COGS is accumulated layer by layer; a sale
that exceeds the stock on hand is back-ordered at the last cost plus a
premium. A learned obsolescence model sets a reserve on what is left.
"""
import torch
import torch.nn as nn


class FifoCostLayers(nn.Module):
    def __init__(self, backorder_premium=1.1):
        super().__init__()
        self.backorder_premium = backorder_premium
        self.obsolescence = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 1))

    def forward(self, lots, sales):
        remaining = [lot[0] for lot in lots]
        unit_cost = [lot[1] for lot in lots]
        head = 0
        cogs = []
        backordered = torch.zeros(())
        for s in range(sales.shape[0]):
            need = sales[s]
            cost = torch.zeros(())
            while need > 0 and head < len(remaining):
                take = torch.minimum(need, remaining[head])
                cost = cost + take * unit_cost[head]
                remaining[head] = remaining[head] - take
                need = need - take
                if remaining[head] <= 0:
                    head += 1       # layer exhausted, move to the next-oldest lot
            if need > 0:
                backordered = backordered + need
                cost = cost + need * unit_cost[-1] * self.backorder_premium
            cogs.append(cost)

        on_hand = torch.stack(remaining)
        value = on_hand * torch.stack(unit_cost)
        reserve_rate = torch.sigmoid(self.obsolescence(
            torch.stack([lots[:, 2] / 365.0, lots[:, 1] / 100.0], dim=1))).squeeze(1) * 0.3
        net_value = (value * (1.0 - reserve_rate)).sum()
        return torch.stack(cogs), net_value, backordered


def model():
    torch.manual_seed(5512)
    return FifoCostLayers().eval()


def _books(n_lots, n_sales, lot_qty, sale_qty, seed):
    g = torch.Generator().manual_seed(seed)
    qty = torch.randint(lot_qty // 2, lot_qty + 1, (n_lots,), generator=g).float()
    cost = 20.0 + 5.0 * torch.rand(n_lots, generator=g)
    age = torch.linspace(400.0, 10.0, n_lots)
    sales = torch.randint(1, sale_qty + 1, (n_sales,), generator=g).float()
    return torch.stack([qty, cost, age], dim=1), sales


def example_inputs():
    return _books(6, 8, 40, 30, 1)


def dynamic_shapes():
    lots = torch.export.Dim("lots", min=2, max=32)
    sales = torch.export.Dim("sales", min=2, max=32)
    return ({0: lots}, {0: sales})


def verify_inputs():
    return [
        example_inputs(),                   # sales span several layers, stock left over
        _books(2, 2, 10, 4, 2),             # lots=min, sales=min: two small sales
        _books(32, 32, 20, 25, 3),          # lots=max, sales=max: many layers exhausted
        _books(3, 10, 10, 20, 4),           # demand exceeds stock -> while stops on head, backorders
        _books(4, 2, 50, 5, 5),             # tiny sales, no layer exhausted
    ]
