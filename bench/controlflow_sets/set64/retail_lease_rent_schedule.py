"""Commercial real estate: monthly rent roll for a retail lease.

Base rent escalates every lease year by CPI (year-over-year, December
index), floored and capped per the lease.  The first months of year one are
rent-free (tenant fit-out).  Percentage rent is due in months where the
tenant's sales exceed the natural breakpoint.  The tenant has a kick-out
clause: after two consecutive lease years with annual sales under the
threshold the lease terminates at the end of that year.
"""
import torch
import torch.nn as nn


class LeaseSchedule(nn.Module):
    def __init__(self, floor=0.02, cap=0.05, pct_rent=0.06, kickout_sales=600_000.0, months=12):
        super().__init__()
        self.floor = floor
        self.cap = cap
        self.pct_rent = pct_rent
        self.kickout_sales = kickout_sales
        self.months = months

    def _escalation(self, cpi_now, cpi_prev):
        change = cpi_now / cpi_prev - 1.0
        if change < self.floor:
            return torch.tensor(self.floor)
        if change > self.cap:
            return torch.tensor(self.cap)
        return change

    def forward(self, cpi, sales, base_rent, free_months):
        rent = base_rent.clone()
        rows = []
        weak_years = 0
        for y in range(cpi.shape[0]):
            if y > 0:
                rent = rent * (1.0 + self._escalation(cpi[y, -1], cpi[y - 1, -1]))
            breakpoint = rent / self.pct_rent
            year = []
            for m in range(self.months):  # static: 12 months per lease year
                if y == 0 and m < free_months:
                    year.append(torch.zeros(()))
                    continue
                due = rent
                if sales[y, m] > breakpoint:
                    due = due + self.pct_rent * (sales[y, m] - breakpoint)
                year.append(due)
            rows.append(torch.stack(year))
            if sales[y].sum() < self.kickout_sales:
                weak_years += 1
            else:
                weak_years = 0
            if weak_years >= 2:
                break
        schedule = torch.stack(rows)
        return schedule, schedule.sum()


def model():
    torch.manual_seed(64)
    return LeaseSchedule().eval()


def _cpi(yoy):
    """Monthly CPI index path from yearly inflation rates."""
    idx, level = [], 100.0
    for r in yoy:
        months = [level * (1.0 + r) ** ((m + 1) / 12.0) for m in range(12)]
        idx.append(months)
        level = months[-1]
    return torch.tensor(idx)


def _sales(levels, seed):
    g = torch.Generator().manual_seed(seed)
    season = torch.tensor([0.8, 0.8, 0.9, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.1, 1.2, 1.6])
    return torch.stack([lv * season * (1 + 0.03 * torch.randn(12, generator=g)) for lv in levels])


def example_inputs():
    return (_cpi([0.03, 0.01, 0.04, 0.08]), _sales([60_000.0, 70_000.0, 75_000.0, 90_000.0], seed=0),
            torch.tensor(5000.0), torch.tensor(3))


def dynamic_shapes():
    y = torch.export.Dim("lease_years", min=2, max=15)
    return ({0: y}, {0: y}, None, None)


def verify_inputs():
    return [
        example_inputs(),   # escalation floor / in-band / cap; free months (continue); percentage rent in some months
        (_cpi([0.02, 0.03, 0.03, 0.03, 0.03]), _sales([40_000.0, 45_000.0, 42_000.0, 80_000.0, 80_000.0], seed=1),
         torch.tensor(4000.0), torch.tensor(0)),      # no free months; weak sales 2 years running -> kick-out break after year 2
        (_cpi([0.02, 0.01]), _sales([45_000.0, 90_000.0], seed=2),
         torch.tensor(6000.0), torch.tensor(12)),     # whole first year free; one weak year then a strong one (streak reset)
    ]
