"""Voluntary milking system: milking permission for cows at the robot gate.

A cow is let into the box when she is due: enough milk expected since her
last milking (the threshold depends on her lactation stage) or her maximum
interval has passed, and never sooner than the minimum interval.  The robot
has a time budget for the coming hour; most-overdue cows go first.  High
milk conductivity (mastitis indicator) diverts the milk from the bulk tank,
and overdue cows the robot cannot take are flagged for fetching.
"""
import torch
import torch.nn as nn


class MilkingPermission(nn.Module):
    def __init__(self):
        super().__init__()
        self.min_interval_h = 4.0
        self.max_interval_h = 14.0
        # (days in milk up to, minimum expected yield in kg)
        self.stage_yield = [(60.0, 7.0), (200.0, 9.0), (305.0, 11.0)]
        self.late_lactation_yield = 12.0
        self.mastitis_ms_cm = 6.5
        # box time from teat preparation, attachment and flow
        self.box_time = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))

    def min_yield(self, days_in_milk):
        for limit, kg in self.stage_yield:
            if days_in_milk < limit:
                return kg
        return self.late_lactation_yield

    def forward(self, cows, budget_min):
        n = cows.shape[0]
        hours, rate, dim, cond = cows.unbind(1)
        expected = hours * rate
        feats = cows / torch.tensor([10.0, 2.0, 300.0, 6.0])
        minutes = 6.0 + 2.0 * torch.sigmoid(self.box_time(feats)).squeeze(1) + 0.25 * expected
        # most overdue first, ties broken by cow number
        priority = hours / self.max_interval_h - 1e-6 * torch.arange(n)
        order = torch.argsort(priority, descending=True)

        permit = torch.zeros(n, dtype=torch.long)
        divert = torch.zeros(n, dtype=torch.long)
        used = torch.zeros(())
        for k in range(n):
            i = int(order[k])
            if hours[i] < self.min_interval_h:
                continue  # came back too soon: refused, gate sends her to the feed alley
            due = hours[i] >= self.max_interval_h
            if not due and expected[i] < self.min_yield(dim[i]):
                continue
            if used + minutes[i] > budget_min:
                break  # robot booked for this hour
            permit[i] = 1
            used = used + minutes[i]
            divert[i] = 1 if cond[i] > self.mastitis_ms_cm else 0

        fetch = (hours >= self.max_interval_h) & (permit == 0)
        return permit, divert, fetch.long(), used


def model():
    torch.manual_seed(5903)
    return MilkingPermission().eval()


def make_herd(rows):
    return torch.tensor(rows, dtype=torch.float32)


def example_inputs():
    # hours since milking, kg/h, days in milk, conductivity mS/cm
    cows = make_herd([[9.1, 1.3, 30.0, 5.1],     # early lactation, 11.8 kg -> permit
                      [3.2, 1.9, 120.0, 5.0],    # too soon -> refused
                      [7.4, 1.0, 150.0, 7.2],    # 7.4 kg < 9 kg -> wait
                      [11.5, 1.1, 250.0, 6.9],   # 12.7 kg > 11 -> permit, mastitis divert
                      [6.3, 1.5, 80.0, 5.3]])    # 9.45 kg >= 9 -> permit
    return cows, torch.tensor(60.0)


def dynamic_shapes():
    c = torch.export.Dim("n_cows", min=2, max=40)
    return ({0: c}, None)


def verify_inputs():
    ex = example_inputs()
    # n = min: late lactation cow (DIM 340) needs 12 kg; second cow overdue -> permit
    small = (make_herd([[10.2, 1.1, 340.0, 5.0], [14.6, 0.5, 320.0, 5.4]]), torch.tensor(60.0))
    # n = max: busy hour, budget runs out -> break; overdue cows left -> fetch list
    g = torch.Generator().manual_seed(7)
    hours = 2.0 + torch.rand(40, generator=g) * 14.0
    rate = 0.8 + torch.rand(40, generator=g) * 1.2
    dim = torch.rand(40, generator=g) * 360.0
    cond = 4.8 + torch.rand(40, generator=g) * 2.5
    busy = (torch.stack([hours, rate, dim, cond], 1), torch.tensor(25.0))
    return [ex, small, busy]
