"""Gate agent tool: choose who gives up a seat on an oversold flight.

Each checked-in passenger has a volunteer bid (compensation asked, USD; a
very large number means "not volunteering"), a connection risk from the
downstream itinerary and a fare class (0 = basic economy ... 3 = full fare).
A small network estimates the rebooking cost of each passenger.  Volunteers
are taken cheapest first; if there are not enough of them the remaining seats
are denied involuntarily, lowest fare class first and latest check-in first.
"""
import torch
import torch.nn as nn

NOT_VOLUNTEERING = 1e6


class BumpSelector(nn.Module):
    def __init__(self):
        super().__init__()
        self.rebook = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 1))
        self.max_connection_risk = 0.8
        self.involuntary_comp = 1550.0

    def forward(self, passengers, cabin):
        # passengers: (P, 3) ask usd, connection risk, fare class; cabin: (2,) seats, checked in
        n = passengers.shape[0]
        oversold = int((cabin[1] - cabin[0]).item())
        if oversold <= 0:
            return torch.zeros(n), torch.zeros(1)

        ask, risk, fare = passengers[:, 0], passengers[:, 1], passengers[:, 2]
        feats = torch.stack([ask.clamp(max=5000.0) / 1000.0, risk, fare / 3.0], dim=1)
        cost = ask + 100.0 * torch.sigmoid(self.rebook(feats).squeeze(-1))
        volunteer = (ask < NOT_VOLUNTEERING) & (risk < self.max_connection_risk)
        cost = torch.where(volunteer, cost, torch.full_like(cost, 1e9))
        order = torch.argsort(cost, stable=True)

        picked = []
        for k in range(oversold):
            cand = order[k]
            if not volunteer[cand]:
                break          # no volunteers left
            picked.append(cand)

        status = torch.zeros(n)
        paid = torch.zeros(1)
        if picked:
            chosen = torch.stack(picked)
            status[chosen] = 1.0
            paid = paid + ask[chosen].sum()
        remaining = oversold - len(picked)
        if remaining > 0:
            # lowest fare first, then latest check-in (higher index) first
            priority = fare * n - torch.arange(n, dtype=fare.dtype)
            priority = torch.where(status > 0, torch.full_like(priority, 1e9), priority)
            denied = torch.argsort(priority, stable=True)[:remaining]
            status[denied] = 2.0
            paid = paid + self.involuntary_comp * remaining
        return status, paid


def model():
    torch.manual_seed(5608)
    return BumpSelector().eval()


def _pax(n, seed, volunteers):
    g = torch.Generator().manual_seed(seed)
    ask = torch.full((n,), NOT_VOLUNTEERING)
    idx = torch.randperm(n, generator=g)[:volunteers]
    ask[idx] = 300.0 + 900.0 * torch.rand(volunteers, generator=g)
    risk = torch.rand(n, generator=g)
    fare = torch.randint(0, 4, (n,), generator=g).float()
    return torch.stack([ask, risk, fare], dim=1)


def example_inputs():
    return (_pax(180, 1, 12), torch.tensor([174.0, 178.0]))


def dynamic_shapes():
    p = torch.export.Dim("passengers", min=4, max=400)
    return ({0: p}, None)


def verify_inputs():
    few = _pax(4, 2, 1)
    return [
        # 180 checked in, 4 oversold, plenty of volunteers -> 4 volunteers paid
        example_inputs(),
        # min 4 passengers, 2 oversold, only one volunteer (or none with a safe
        # connection) -> volunteer loop breaks, the rest is denied boarding
        (few, torch.tensor([2.0, 4.0])),
        # max 400 passengers, not oversold -> early return
        (_pax(400, 3, 30), torch.tensor([410.0, 400.0])),
        # 60 passengers, 9 oversold, no volunteers at all -> 9 involuntary
        (_pax(60, 4, 0), torch.tensor([51.0, 60.0])),
    ]
