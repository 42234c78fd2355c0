"""Marathon pacing advisor for a running watch.

Given the per-km splits run so far (pace, heart rate, elevation gain) and the
runner's goal time, a small fatigue network predicts the slowdown over the
remaining distance. If the projected finish misses the goal, the advisor
searches for the smallest pace increase (in 2 s/km steps, capped) that gets
back on target; if heart rate is already high or drifting, it refuses to
speed the runner up.

Kind T. Constructs: 1 (if/else on tensor comparisons), 2 (branches assign the
same variable), 3 (`and` / `or` of tensor predicates), 4 (while loop with a
tensor condition and loop-carried state).
"""
import torch
import torch.nn as nn

MARATHON_KM = 42.195


class PacingAdvisor(nn.Module):
    def __init__(self, hidden=16, hr_max=190.0, step_s=2.0, max_speedup_s=30.0):
        super().__init__()
        self.hr_max = hr_max
        self.step = step_s
        self.max_speedup = max_speedup_s
        self.fatigue = nn.Sequential(nn.Linear(4, hidden), nn.Tanh(), nn.Linear(hidden, 1))

    def project(self, elapsed, remaining_km, pace, slowdown, hr_cost):
        return elapsed + remaining_km * pace * (1.0 + slowdown + hr_cost)

    def forward(self, splits, goal):
        # splits: (K, 3) [s/km, bpm, elevation gain m]; goal: (1,) target finish in seconds
        k = splits.shape[0]
        elapsed = splits[:, 0].sum()
        remaining = MARATHON_KM - k
        recent = splits[-3:]
        pace = recent[:, 0].mean()
        hr = recent[:, 1].mean()
        drift = (splits[-1, 1] - splits[0, 1]) / splits[0, 1]   # cardiac drift since the start
        feats = torch.stack([pace / 300.0, hr / self.hr_max, drift, torch.tensor(k / MARATHON_KM)])
        slowdown = 0.04 * torch.sigmoid(self.fatigue(feats)).squeeze()

        speedup = torch.zeros(())
        projected = self.project(elapsed, remaining, pace, slowdown, 0.0)
        while projected > goal[0] and speedup < self.max_speedup:
            speedup = speedup + self.step
            # running faster costs extra fatigue, more so late in the race
            hr_cost = 0.002 * speedup * (k / MARATHON_KM)
            projected = self.project(elapsed, remaining, pace - speedup, slowdown, hr_cost)

        if hr > 0.9 * self.hr_max or drift > 0.08:
            advice = pace.reshape(1)            # hold pace, do not chase the goal
        else:
            advice = (pace - speedup).reshape(1)
        return advice, projected.reshape(1), speedup.reshape(1)


def model():
    torch.manual_seed(3410)
    return PacingAdvisor().eval()


def _splits(k, pace, hr0, hr_slope, seed):
    g = torch.Generator().manual_seed(seed)
    i = torch.arange(k, dtype=torch.float32)
    paces = pace + 4.0 * torch.rand(k, generator=g) - 2.0
    hrs = hr0 + hr_slope * i + torch.rand(k, generator=g)
    elev = 10.0 * torch.rand(k, generator=g)
    return torch.stack([paces, hrs, elev], dim=1)


def example_inputs():
    # 20 km at ~5:00/km, goal 3:30:00 (needs ~4:59/km incl. fatigue) -> a few speed-up steps
    return (_splits(20, 300.0, 150.0, 0.3, 1), torch.tensor([3.5 * 3600.0]))


def dynamic_shapes():
    K = torch.export.Dim("km", min=2, max=42)
    return ({0: K}, None)


def verify_inputs():
    return [
        # behind goal by a little: loop runs a few times, HR fine -> advice = faster pace
        example_inputs(),
        # well ahead of a 4:00 goal: loop runs 0 times
        (_splits(10, 300.0, 145.0, 0.2, 2), torch.tensor([4.0 * 3600.0])),
        # far behind a sub-3 goal at 5:30/km: loop stops at the speed-up cap, HR high -> hold pace
        (_splits(30, 330.0, 168.0, 0.3, 3), torch.tensor([3.0 * 3600.0])),
        # 2 km in, HR drifting strongly (but not above 90% max): hold pace even though behind
        (torch.tensor([[280.0, 140.0, 5.0], [282.0, 156.0, 3.0]]), torch.tensor([3.2 * 3600.0])),
        # just behind: exactly one speed-up step needed
        (_splits(25, 300.0, 150.0, 0.1, 4), torch.tensor([12742.0])),
    ]
