"""Haemodialysis ultrafiltration (fluid removal) profile planner.

Given the pre-session vitals trace and the prescription (litres to remove,
session length in hours), plan an hourly UF-rate profile.  The plan is
front-loaded, slowed down when the patient shows hypotension risk, and stops
early if the predicted relative blood volume would fall below a safe level.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim


class UFPlanner(nn.Module):
    def __init__(self, max_hours=6):
        super().__init__()
        self.max_hours = max_hours
        self.max_rate = 1.2          # L/h
        self.min_sbp = 100.0         # mmHg
        self.sbp_drop = 15.0         # mmHg over the trace
        self.min_rbv = 88.0          # % relative blood volume
        self.rbv_per_litre = 3.0     # % drop per litre removed (refill ignored)
        self.tolerance = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, vitals, rx):
        # vitals: [T, 4] = systolic BP, heart rate, relative blood volume %, SpO2
        target_l, hours = rx[0], rx[1]
        n_hours = int(hours.item())
        if n_hours == 0:
            return torch.zeros(self.max_hours), torch.zeros(()), torch.tensor(False)

        scale = torch.tensor([100.0, 100.0, 100.0, 100.0])
        x = torch.cat([vitals.mean(0) / scale, vitals[-1] / scale])
        tol = 0.85 + 0.3 * torch.sigmoid(self.tolerance(x))[0]    # patient-specific 0.85 .. 1.15

        base_rate = target_l / hours * tol
        sbp_trend = vitals[-1, 0] - vitals[0, 0]
        at_risk = sbp_trend < -self.sbp_drop or vitals[-1, 0] < self.min_sbp
        if at_risk:
            base_rate = base_rate * 0.7

        profile = []
        removed = torch.zeros(())
        rbv = vitals[-1, 2]
        for h in range(n_hours):
            shape = 1.3 - 0.4 * h / max(n_hours - 1, 1)          # front-loaded 1.3 -> 0.9
            rate = torch.clamp(base_rate * shape, max=self.max_rate)
            rate = torch.minimum(rate, target_l - removed)
            if rbv - rate * self.rbv_per_litre < self.min_rbv:
                break                                            # stop UF, nurse review
            profile.append(rate)
            removed = removed + rate
            rbv = rbv - rate * self.rbv_per_litre
        if len(profile) == 0:
            return torch.zeros(self.max_hours), removed, torch.tensor(True)
        plan = torch.stack(profile)
        plan = F.pad(plan, (0, self.max_hours - plan.shape[0]))
        return plan, removed, torch.tensor(bool(at_risk))


def model():
    torch.manual_seed(2)
    return UFPlanner().eval()


def _gen_vitals(n, sbp0, sbp1, rbv, seed):
    g = torch.Generator().manual_seed(seed)
    sbp = torch.linspace(sbp0, sbp1, n)
    hr = 72 + 3 * torch.randn(n, generator=g)
    v = torch.full((n,), rbv) + 0.2 * torch.randn(n, generator=g)
    spo2 = 97 + 0.5 * torch.randn(n, generator=g)
    return torch.stack([sbp, hr, v, spo2], 1)


def example_inputs():
    return _gen_vitals(30, 138.0, 134.0, 100.0, 0), torch.tensor([2.5, 4.0])


def dynamic_shapes():
    return ({0: Dim("readings", min=2, max=120)}, None)


def verify_inputs():
    return [
        example_inputs(),                                                      # stable, 4 h, full plan
        (_gen_vitals(12, 140.0, 118.0, 100.0, 1), torch.tensor([3.0, 4.0])),  # SBP falling 22 mmHg -> reduced rate
        (_gen_vitals(6, 96.0, 95.0, 100.0, 2), torch.tensor([1.0, 3.0])),     # hypotensive -> reduced rate, 3-hour plan
        (_gen_vitals(20, 130.0, 131.0, 93.0, 3), torch.tensor([4.0, 5.0])),   # low RBV -> stops after a few hours (break)
        (_gen_vitals(8, 135.0, 133.0, 89.0, 4), torch.tensor([2.0, 3.0])),   # RBV at the limit -> break in first hour, empty plan
        (_gen_vitals(2, 125.0, 126.0, 99.0, 5), torch.tensor([0.8, 1.0])),   # one-hour session: loop runs once
        (_gen_vitals(10, 128.0, 128.0, 99.0, 6), torch.tensor([0.3, 0.5])),  # half-hour top-up: n_hours == 0 -> early return
    ]
