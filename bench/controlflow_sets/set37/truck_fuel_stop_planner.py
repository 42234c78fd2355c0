"""Fuel-stop planner for a long-haul truck.

Stations along the route come as their kilometre marks (sorted) and diesel
prices.  A learned model gives the consumption for today's load and gradient
mix.  Greedy plan: while the destination is out of range (keeping a reserve),
drive to the cheapest station within range and buy just enough to finish (plus
margin), or a full tank if that does not fit.  Stops when stranded or when the
fuel budget is blown.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class Consumption(nn.Module):
    """Litres per km from payload (t), share of climbing (0..1) and head-wind (m/s)."""

    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))
        self.heavy_t = 30.0

    def forward(self, truck):
        base = 0.30 + 0.05 * torch.tanh(self.net(truck / torch.tensor([40.0, 1.0, 10.0])))[0]
        if truck[0] > self.heavy_t:
            base = base * (1.0 + 0.004 * (truck[0] - self.heavy_t))
        return base


class FuelPlanner(nn.Module):
    def __init__(self):
        super().__init__()
        self.consumption = Consumption()
        self.tank_l = 400.0
        self.reserve_l = 40.0
        self.margin_l = 25.0
        self.budget = 1200.0

    def forward(self, station_km, price, route_km, fuel_l, truck):
        burn = self.consumption(truck)
        pos = torch.zeros(())
        fuel = fuel_l[0]
        dest = route_km[0]
        cost = torch.zeros(())
        stops = []
        while pos + (fuel - self.reserve_l) / burn < dest:
            reach = pos + (fuel - self.reserve_l) / burn
            ok = (station_km > pos) & (station_km <= reach)
            if not ok.any():
                # stranded: nothing reachable before the reserve is touched
                plan = torch.stack(stops) if stops else torch.zeros(0, 3)
                return plan, cost, torch.tensor(True)
            j = torch.where(ok, price, torch.full_like(price, float("inf"))).argmin()
            fuel = fuel - (station_km[j] - pos) * burn
            pos = station_km[j]
            need = (dest - pos) * burn + self.reserve_l + self.margin_l - fuel
            buy = torch.minimum(need, self.tank_l - fuel)
            cost = cost + buy * price[j]
            fuel = fuel + buy
            stops.append(torch.stack([pos, buy, price[j]]))
            if cost > self.budget:
                break                       # dispatcher has to approve more spend
        plan = torch.stack(stops) if stops else torch.zeros(0, 3)
        return plan, cost, torch.tensor(False)


def model():
    torch.manual_seed(23)
    return FuelPlanner().eval()


def example_inputs():
    km = torch.tensor([120.0, 310.0, 480.0, 650.0, 905.0, 1300.0, 1450.0, 1800.0, 2150.0])
    price = torch.tensor([1.62, 1.55, 1.71, 1.49, 1.66, 1.58, 1.52, 1.61, 1.57])
    return km, price, torch.tensor([2600.0]), torch.tensor([250.0]), torch.tensor([24.0, 0.3, 2.0])


def dynamic_shapes():
    s = Dim("stations", min=2, max=40)
    return {0: s}, {0: s}, None, None, None


def verify_inputs():
    every_250 = torch.arange(250.0, 4000.0, 250.0)
    return [
        example_inputs(),                                                         # two stops (fill, then top-up-limited)
        (torch.tensor([100.0, 200.0]), torch.tensor([1.6, 1.5]), torch.tensor([300.0]),
         torch.tensor([380.0]), torch.tensor([20.0, 0.1, 0.0])),                   # destination in range: loop never runs
        (torch.tensor([150.0, 1500.0]), torch.tensor([1.6, 1.5]), torch.tensor([2000.0]),
         torch.tensor([200.0]), torch.tensor([38.0, 0.5, 5.0])),                   # heavy; one stop then gap too long -> stranded
        (every_250, 1.9 + 0.01 * ((4 * torch.arange(15.0)) % 15), torch.tensor([4000.0]),
         torch.tensor([120.0]), torch.tensor([36.0, 0.6, 8.0])),                   # heavy, pricey; budget exceeded -> break
        (torch.tensor([60.0, 90.0, 500.0]), torch.tensor([1.7, 1.5, 1.6]), torch.tensor([600.0]),
         torch.tensor([100.0]), torch.tensor([10.0, 0.0, 0.0])),                   # one stop buys exactly what is needed
        (torch.tensor([300.0, 600.0]), torch.tensor([1.6, 1.5]), torch.tensor([900.0]),
         torch.tensor([100.0]), torch.tensor([20.0, 0.2, 1.0])),                   # stranded before the first station
    ]
