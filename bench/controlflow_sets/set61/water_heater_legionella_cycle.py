"""Domestic hot-water tank: schedule the anti-legionella pasteurisation cycle.

If the tank has not reached 60 C in the last day and the weekly cycle is due,
the controller looks for the first upcoming hour with low hot-water demand
and no peak tariff to run a 65 C cycle (immediately if it is badly overdue).
A small learned standby-loss model estimates the reheat energy.

KIND T.  Constructs: 1 (if on .any() / comparisons), 2 (early return;
start hour reassigned in one branch only), 3 (and/or/not mixing Python and
tensor predicates), 4 (while with a tensor condition), 7 (helper with its own
branch on the tariff), 8 (ternary on the dynamic history length).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim

KIND = "T"
CONSTRUCTS = (1, 2, 3, 4, 7, 8)


class LegionellaCycleScheduler(nn.Module):
    def __init__(self, normal_setpoint=50.0, cycle_setpoint=65.0, max_interval_h=168.0,
                 quiet_demand=10.0, tank_litres=200.0):
        super().__init__()
        self.normal_setpoint = normal_setpoint
        self.cycle_setpoint = cycle_setpoint
        self.max_interval_h = max_interval_h
        self.quiet_demand = quiet_demand
        self.tank_litres = tank_litres
        self.loss_model = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))

    def _is_peak(self, price, tariff):
        if tariff.max() - tariff.min() < 0.02:
            # flat tariff: no peak hours at all
            return torch.tensor(False)
        return price > tariff.mean()

    def forward(self, tank_temps, hours_since, demand, tariff):
        # tank_temps: (T,) hourly tank temperature history; hours_since: ();
        # demand: (24,) forecast litres/h; tariff: (24,) price per kWh for the next day
        last_day = tank_temps[-24:] if tank_temps.shape[0] >= 24 else tank_temps
        pasteurised = (last_day >= 60.0).any()
        overdue = hours_since > self.max_interval_h
        if pasteurised and not overdue:
            return torch.tensor(self.normal_setpoint), torch.tensor(-1), torch.zeros(())

        h = 0
        while h < 23 and (demand[h] > self.quiet_demand or self._is_peak(tariff[h], tariff)):
            h += 1
        start = torch.tensor(h)
        if hours_since > 2 * self.max_interval_h:
            start = torch.tensor(0)  # badly overdue: start now regardless of price

        delta_t = self.cycle_setpoint - tank_temps[-1]
        heat_kwh = self.tank_litres * 4.186 * delta_t.clamp(min=0.0) / 3600.0
        feats = torch.stack([tank_temps.mean() / 60.0, delta_t / 20.0, start.float() / 24.0])
        loss_kwh = F.softplus(self.loss_model(feats)).squeeze(0)
        return torch.tensor(self.cycle_setpoint), start, heat_kwh + loss_kwh


def model():
    torch.manual_seed(61009)
    return LegionellaCycleScheduler().eval()


def make_history(n, peak_at=None, base=49.0):
    temps = base + torch.sin(torch.arange(n, dtype=torch.float32) / 3.0)
    if peak_at is not None:
        temps[peak_at] = 63.0
    return temps


MORNING_EVENING = torch.tensor([4., 3, 2, 2, 3, 8, 30, 45, 35, 15, 12, 11,
                                14, 12, 9, 8, 11, 25, 40, 38, 30, 20, 12, 6])
DAY_NIGHT_TARIFF = torch.tensor([0.12] * 7 + [0.30] * 16 + [0.12])
FLAT_TARIFF = torch.full((24,), 0.25)


def example_inputs():
    # pasteurised 10 h ago, cycle not due: normal operation
    return (make_history(48, peak_at=-10), torch.tensor(30.0), MORNING_EVENING, DAY_NIGHT_TARIFF)


def dynamic_shapes():
    return ({0: Dim("hours", min=2, max=720)}, None, None, None)


def verify_inputs():
    busy = torch.full((24,), 25.0)
    return [
        # hot within the last day and not overdue: early return; long history (>= 24)
        example_inputs(),
        # never hot, not overdue: cycle; hour 0 quiet and cheap -> while runs 0 times; short history
        (make_history(12), torch.tensor(100.0), MORNING_EVENING, DAY_NIGHT_TARIFF),
        # hot in the last day but overdue (200 h): cycle; flat tariff; demand quiet until hour 14
        (make_history(30, peak_at=-5), torch.tensor(200.0),
         torch.cat([torch.full((14,), 20.0), torch.full((10,), 5.0)]), FLAT_TARIFF),
        # hot only 30 h ago (outside the last 24 h): cycle; demand quiet at hours 0-5 but
        # those are peak price in this tariff -> loop walks to hour 6 (quiet, off-peak)
        (make_history(60, peak_at=-30), torch.tensor(150.0), torch.full((24,), 5.0),
         torch.tensor([0.30] * 6 + [0.10] * 18)),
        # demand never quiet: loop stops at the hour-23 cap; 400 h since last cycle -> start now
        (make_history(24), torch.tensor(400.0), busy, DAY_NIGHT_TARIFF),
        # just overdue (170 h), hour 0 busy, hour 1 quiet on a flat tariff: loop runs once
        (make_history(36), torch.tensor(170.0),
         torch.cat([torch.tensor([15.0]), torch.full((23,), 3.0)]), FLAT_TARIFF),
    ]
