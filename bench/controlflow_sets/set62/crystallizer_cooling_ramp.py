"""Batch cooling crystallization of an API (pharma process development).

Simulates a cooling-crystallization batch on the supervisory controller: the
jacket temperature is ramped down step by step, but the ramp is held whenever
the relative supersaturation exceeds the metastable-zone limit (to avoid a
shower of fines). The solubility curve comes from the lab as a table that is
interpolated by a helper; crystal growth per step is a learned kinetics model
(a small MLP on supersaturation and temperature).

Kind: T.  Constructs: 1, 2, 3, 4, 9.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim


class CoolingCrystallizer(nn.Module):
    def __init__(self, final_temp=19.5, cool_rate=1.0, metastable_limit=0.08, k_growth=1.2,
                 max_steps=45, seeded=True):
        super().__init__()
        self.growth = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 1))
        self.final_temp = final_temp
        self.cool_rate = cool_rate
        self.metastable_limit = metastable_limit
        self.k_growth = k_growth
        self.max_steps = max_steps
        self.seeded = seeded

    def solubility(self, table, temp):
        # table: [K, 2] rows of (temperature C, solubility g/L), ascending temperature
        t = table[:, 0].contiguous()
        idx = torch.searchsorted(t, temp.reshape(1)).clamp(1, t.shape[0] - 1)
        t0, t1 = t[idx - 1], t[idx]
        s0, s1 = table[idx - 1, 1], table[idx, 1]
        w = (temp - t0) / (t1 - t0)
        return (s0 + w * (s1 - s0)).squeeze(0)

    def forward(self, table, start):
        # start: [2] = (initial temperature C, dissolved concentration g/L)
        temp, conc = start[0], start[1]
        crystal = torch.zeros(())
        if self.seeded:
            crystal = crystal + 0.01 * conc  # 1 % seed loading
        holds = torch.zeros(())
        steps = 0
        while temp > self.final_temp and steps < self.max_steps:
            c_sat = self.solubility(table, temp)
            s = conc / c_sat - 1.0
            if s > self.metastable_limit:
                rate = 0.0  # hold the ramp, let growth eat the supersaturation
                holds = holds + 1
            else:
                rate = self.cool_rate
            g = F.softplus(self.growth(torch.stack([s, temp / 50.0]))).squeeze()
            grown = torch.minimum(self.k_growth * g * s.clamp(min=0.0) * c_sat, conc - c_sat).clamp(min=0.0)
            conc = conc - grown
            crystal = crystal + grown
            temp = temp - rate
            steps += 1
        return torch.stack([temp, conc, crystal, holds])


def model():
    torch.manual_seed(629)
    return CoolingCrystallizer().eval()


def _table(points):
    temps = torch.linspace(0.0, 80.0, points)
    sol = 20.0 * torch.exp(0.03 * temps)  # g/L, roughly exponential in T
    return torch.stack([temps, sol], dim=1)


def example_inputs():
    return (_table(9), torch.tensor([60.0, 140.0]))


def dynamic_shapes():
    return ({0: Dim("table_rows", min=2, max=64)}, None)


def verify_inputs():
    return [
        example_inputs(),                            # supersaturated at 60 C: a couple of holds, then ramps to 19 C
        (_table(17), torch.tensor([60.0, 90.0])),    # undersaturated feed: never holds, reaches 19 C
        (_table(2), torch.tensor([18.0, 30.0])),     # already below final temp: loop runs 0 times
        (_table(5), torch.tensor([20.0, 30.0])),     # just above final temp: loop runs once
        (_table(33), torch.tensor([75.0, 400.0])),   # very concentrated hot feed: stops at max_steps (second `and` operand)
        (_table(3), torch.tensor([70.0, 300.0])),    # 3-row table, strongly supersaturated: holds, also stops at max_steps
    ]
