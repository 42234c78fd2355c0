"""End-of-shift tip pool for a restaurant.

Staff earn points = hours x role weight (servers, bussers, bartenders,
kitchen); servers above the sales target get a bonus multiplier.  People who
clocked less than a quarter hour are skipped.  On slow nights (small pool) the pool is split
evenly between everyone who worked instead of by points.
"""
import torch
import torch.nn as nn

SERVER, BUSSER, BARTENDER, KITCHEN = 0, 1, 2, 3


class TipPool(nn.Module):
    def __init__(self, sales_target=1500.0, slow_night_pool=80.0, kitchen_cap=0.3, min_hours=0.25):
        super().__init__()
        self.min_hours = min_hours
        self.sales_target = sales_target
        self.slow_night_pool = slow_night_pool
        self.kitchen_cap = kitchen_cap
        self.register_buffer("role_weight", torch.tensor([1.0, 0.5, 0.8, 0.4]))

    def _points(self, hours, role, sales):
        pts = hours * self.role_weight[role]
        if role == SERVER and sales > self.sales_target:
            pts = pts * 1.1
        elif role == KITCHEN or role == BUSSER:
            # back-of-house shifts are paid on at most 8 hours
            pts = torch.minimum(pts, 8.0 * self.role_weight[role])
        return pts

    def forward(self, hours, role, sales, pool):
        points = []
        for i in range(hours.shape[0]):
            if hours[i] < self.min_hours:
                points.append(torch.zeros(()))
                continue
            points.append(self._points(hours[i], role[i], sales[i]))
        points = torch.stack(points)
        worked = (hours >= self.min_hours).float()

        if pool < self.slow_night_pool:
            share = pool * worked / worked.sum()
        else:
            share = pool * points / points.sum()
            kitchen = role == KITCHEN
            kitchen_total = share[kitchen].sum()
            if kitchen_total > self.kitchen_cap * pool:
                # house rule: kitchen takes at most 30% of the pool; excess goes back to front of house
                excess = kitchen_total - self.kitchen_cap * pool
                share = torch.where(kitchen, share * (self.kitchen_cap * pool / kitchen_total), share)
                foh = ~kitchen & (worked > 0)
                share = share + excess * foh.float() * points / (points * foh.float()).sum()
        return share, points


def model():
    torch.manual_seed(64)
    return TipPool().eval()


def example_inputs():
    hours = torch.tensor([6.0, 7.5, 0.0, 5.0, 9.0, 4.0])
    role = torch.tensor([SERVER, SERVER, SERVER, BUSSER, KITCHEN, BARTENDER])
    sales = torch.tensor([1800.0, 900.0, 0.0, 0.0, 0.0, 0.0])
    return hours, role, sales, torch.tensor(640.0)


def dynamic_shapes():
    n = torch.export.Dim("staff", min=2, max=64)
    return ({0: n}, {0: n}, {0: n}, None)


def verify_inputs():
    h, r, s, _ = example_inputs()
    return [
        example_inputs(),                       # points path; skip (continue) for 0 hours; server bonus / no bonus; BOH 8h cap; kitchen under cap
        (h, r, s, torch.tensor(45.0)),          # slow night -> even split among workers
        (torch.tensor([4.0, 10.0, 10.0]),       # kitchen-heavy shift -> kitchen share above 30% cap, redistributed
         torch.tensor([SERVER, KITCHEN, KITCHEN]), torch.tensor([700.0, 0.0, 0.0]), torch.tensor(300.0)),
        (torch.tensor([5.0, 6.0]), torch.tensor([BARTENDER, SERVER]),   # nobody skipped, no kitchen, no bonus
         torch.tensor([0.0, 1400.0]), torch.tensor(200.0)),
    ]
