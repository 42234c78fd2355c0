"""Retail inventory simulation with a learned demand forecaster: an (s, S)
reorder policy places an order (sized by the forecast over the lead time) when
stock drops below the reorder point and nothing is outstanding, overstock is
cleared by a markdown, and closed days (negative demand marker) are skipped."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class DemandForecaster(nn.Module):
    def __init__(self, window):
        super().__init__()
        self.fc = nn.Linear(window, 1)

    def forward(self, recent):
        return F.softplus(self.fc(recent / 10.0)).squeeze(-1) * 10.0


class InventoryReorderSim(nn.Module):
    def __init__(self, window=4, reorder_point=12.25, order_up_to=40.0, overstock=60.25,
                 lead_time=2):
        super().__init__()
        self.forecaster = DemandForecaster(window)
        self.window = window
        self.reorder_point = reorder_point
        self.order_up_to = order_up_to
        self.overstock = overstock
        self.lead_time = lead_time

    def forward(self, demand, init_stock, horizon):
        stock = init_stock
        pending = torch.zeros(())
        outstanding = torch.zeros((), dtype=torch.bool)
        arrival = -1
        lost = torch.zeros(())
        markdowns = torch.zeros((), dtype=torch.long)
        recent = torch.zeros(self.window)
        levels = []
        days = min(int(horizon.item()), demand.shape[0])
        for day in range(days):
            if day == arrival:
                stock = stock + pending
                pending = torch.zeros(())
                outstanding = torch.zeros((), dtype=torch.bool)
            d = demand[day]
            if d < 0:
                levels.append(stock)
                continue
            recent = torch.cat([recent[1:], d.view(1)])
            sold = torch.minimum(stock, d)
            lost = lost + (d - sold)
            stock = stock - sold
            if stock < self.reorder_point and not outstanding:
                expected = self.forecaster(recent) * self.lead_time
                pending = torch.round(self.order_up_to - stock + expected)
                outstanding = torch.ones((), dtype=torch.bool)
                arrival = day + self.lead_time
            elif stock > self.overstock:
                stock = stock - torch.floor((stock - self.overstock) / 2)
                markdowns = markdowns + 1
            levels.append(stock)
        if not levels:
            return torch.zeros(0), lost, markdowns
        return torch.stack(levels), lost, markdowns


def model():
    torch.manual_seed(0)
    return InventoryReorderSim().eval()


def _scenario(days, mean, seed, stock, horizon, closed=()):
    g = torch.Generator().manual_seed(seed)
    demand = torch.poisson(torch.full((days,), float(mean)), generator=g)
    for c in closed:
        demand[c] = -1.0
    return demand, torch.tensor(float(stock)), torch.tensor(horizon)


def example_inputs():
    return _scenario(12, 6, 0, 30, 12, closed=(5,))


def dynamic_shapes():
    return ({0: torch.export.Dim("days", min=2, max=365)}, None, None)


def verify_inputs():
    return [
        _scenario(8, 3, 1, 90, 8),
        _scenario(20, 9, 2, 20, 15, closed=(3, 10)),
        _scenario(5, 4, 3, 25, 0),
    ]
