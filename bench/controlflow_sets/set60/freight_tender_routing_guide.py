"""Shipper TMS load tendering: walk each lane's routing guide (primary carrier first),
skip carriers out of committed capacity or priced too far above primary, fall back to a
learned spot-market rate; over-weight loads are split into legal truckloads recursively."""
import torch
import torch.nn as nn
from torch.export import Dim

MAX_LEGAL_LBS = 45000.0
SPOT, DEFERRED = -1, -2


class RoutingGuide(nn.Module):
    def __init__(self, max_premium=1.25, spot_budget=6000.0):
        super().__init__()
        self.max_premium, self.spot_budget = max_premium, spot_budget
        self.spot = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 1), nn.Softplus())

    def tender(self, lane, miles, draws, cap_left, rates, accept):
        for c in range(rates.shape[1]):
            if cap_left[c] <= 0:
                continue  # weekly commitment used up
            if rates[lane, c] > self.max_premium * rates[lane, 0]:
                continue  # backup priced too far above primary: not worth tendering
            if draws[c] < accept[lane, c]:
                cap_left[c] -= 1
                return c, rates[lane, c] * miles
        feats = torch.stack([rates[lane].mean(), miles / 1000.0, torch.tensor(lane / 8.0)])
        return SPOT, (1.0 + self.spot(feats).squeeze()) * rates[lane].mean() * miles

    def book(self, lane, weight, miles, draws, cap_left, rates, accept):
        """Returns a list of (carrier, cost) truckloads."""
        if weight > MAX_LEGAL_LBS:
            first = self.book(lane, weight / 2, miles, draws, cap_left, rates, accept)
            second = self.book(lane, weight / 2, miles, draws.roll(1), cap_left, rates, accept)
            return first + second
        return [self.tender(lane, miles, draws, cap_left, rates, accept)]

    def forward(self, loads, rates, accept, draws, capacity):
        # loads (N, 3): lane, lbs, miles; rates/accept (lanes, C) in guide order;
        # draws (N, C) carrier decisions; capacity (C,) loads left this week
        cap_left = [int(c) for c in capacity]
        carriers, costs, trucks = [], [], []
        spot_spend = torch.zeros(())
        for i in range(loads.shape[0]):
            if spot_spend > self.spot_budget:
                break  # spot budget blown: hold the rest for tomorrow's planning run
            legs = self.book(int(loads[i, 0]), loads[i, 1], loads[i, 2], draws[i], cap_left,
                             rates, accept)
            carriers.append(torch.tensor(legs[0][0]))
            costs.append(torch.stack([cost for _, cost in legs]).sum())
            trucks.append(torch.tensor(len(legs)))
            for c, cost in legs:
                if c == SPOT:
                    spot_spend = spot_spend + cost
        for _ in range(loads.shape[0] - len(carriers)):
            carriers.append(torch.tensor(DEFERRED))
            costs.append(torch.zeros(()))
            trucks.append(torch.tensor(0))
        return (torch.stack(carriers), torch.stack(costs), torch.stack(trucks),
                torch.tensor(cap_left))


def model():
    torch.manual_seed(6018)
    return RoutingGuide().eval()


def _week(n, lanes, c, seed, cap=3, accept_scale=1.0, heavy=()):
    g = torch.Generator().manual_seed(seed)
    lane = torch.randint(0, lanes, (n, 1), generator=g).float()
    lbs = 20000 + 20000 * torch.rand(n, 1, generator=g)
    for i, w in heavy:
        lbs[i] = w
    miles = 200 + 800 * torch.rand(n, 1, generator=g)
    rates = 2.0 + torch.rand(lanes, 1, generator=g) + 1.2 * torch.rand(lanes, c, generator=g)
    accept = accept_scale * (0.3 + 0.6 * torch.rand(lanes, c, generator=g))
    draws = torch.rand(n, c, generator=g)
    return torch.cat([lane, lbs, miles], 1), rates, accept, draws, torch.full((c,), cap)


def example_inputs():
    return _week(6, 3, 4, 1, heavy=((2, 60000.0),))


def dynamic_shapes():
    n, lanes = Dim("loads", min=2, max=24), Dim("lanes", min=2, max=8)
    c = Dim("carriers", min=2, max=6)
    return ({0: n}, {0: lanes, 1: c}, {0: lanes, 1: c}, {0: n, 1: c}, {0: c})


def verify_inputs():
    return [
        _week(6, 3, 4, 1, heavy=((2, 60000.0),)),      # example: one split load, guide walk
        _week(2, 2, 2, 2, accept_scale=0.0),           # min: every carrier declines -> spot
        _week(24, 8, 6, 3, cap=2),                     # max: capacity runs out, budget stops
        _week(4, 2, 3, 4, heavy=((0, 100000.0),)),     # 100k lbs: split twice (4 trucks)
    ]
