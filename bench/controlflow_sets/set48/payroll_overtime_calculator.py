"""Payroll overtime calculator (California-style rules) for a pay period of daily timesheets.

Per employee and day: >8 h is overtime (1.5x), >12 h is double time; regular hours beyond 40 in a
workweek become overtime; the 7th consecutive workday in a workweek is paid at overtime (first 8 h)
and double time after that. A small learned head gives a fatigue-risk score per employee.
"""
import torch
import torch.nn as nn


class OvertimeCalculator(nn.Module):
    def __init__(self, week_len=7):
        super().__init__()
        self.week_len = week_len
        self.fatigue = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1))

    def forward(self, hours, rate):
        # hours: (E, D) hours worked per day; rate: (E,) base hourly rate
        if hours.sum() < 0.5:
            return torch.zeros_like(rate), torch.zeros(rate.shape[0], 3), torch.zeros_like(rate)

        pay, breakdown = [], []
        for e in range(hours.shape[0]):
            reg = torch.zeros(())
            ot = torch.zeros(())
            dt = torch.zeros(())
            week = torch.zeros(())
            streak = 0
            for d in range(hours.shape[1]):
                if d % self.week_len == 0:
                    week = torch.zeros(())
                    streak = 0
                h = hours[e, d]
                if h <= 0:
                    streak = 0
                    continue
                streak += 1
                if streak == 7:
                    ot = ot + torch.clamp(h, max=8.0)
                    dt = dt + torch.relu(h - 8.0)
                    continue
                day_dt = torch.relu(h - 12.0)
                day_ot = torch.clamp(h - 8.0, min=0.0, max=4.0)
                day_reg = h - day_dt - day_ot
                if week + day_reg > 40:
                    spill = week + day_reg - 40
                    day_reg = day_reg - spill
                    day_ot = day_ot + spill
                    week = torch.full((), 40.0)
                else:
                    week = week + day_reg
                reg = reg + day_reg
                ot = ot + day_ot
                dt = dt + day_dt
            pay.append(rate[e] * (reg + 1.5 * ot + 2.0 * dt))
            breakdown.append(torch.stack([reg, ot, dt]))
        breakdown = torch.stack(breakdown)
        risk = torch.sigmoid(self.fatigue(breakdown / 40.0)).squeeze(1)
        return torch.stack(pay), breakdown, risk


def model():
    torch.manual_seed(48005)
    return OvertimeCalculator().eval()


def example_inputs():
    hours = torch.tensor([
        [9.0, 9.0, 9.0, 9.0, 0.0, 0.0, 0.0, 7.5, 7.5],        # daily OT only, days off reset streak
        [10.25, 10.25, 10.25, 10.25, 7.5, 6.5, 0.0, 8.0, 8.0],  # 39.5 regular h after day 5, spill on day 6
        [7.5, 7.5, 7.5, 7.5, 7.5, 7.5, 13.0, 6.0, 0.0],       # 7th consecutive day rule, with double time
    ])
    return hours, torch.tensor([22.0, 31.5, 18.0])


def dynamic_shapes():
    return ({0: torch.export.Dim("employees", min=2, max=64), 1: torch.export.Dim("days", min=2, max=31)},
            {0: torch.export.Dim("employees", min=2, max=64)})


def verify_inputs():
    return [
        example_inputs(),  # daily OT, weekly spill (>40 true/false), 7th-day rule, days off (continue)
        (torch.zeros(2, 5), torch.tensor([20.0, 25.0])),  # empty period -> early return
        (torch.tensor([[13.5, 4.0], [0.0, 8.5]]), torch.tensor([40.0, 19.0])),  # double time on a normal day; min days
    ]
