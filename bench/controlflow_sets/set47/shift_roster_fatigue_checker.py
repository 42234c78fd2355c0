"""Nurse/shift roster fatigue checker: per-worker fatigue state machine over the
roster days, first violation day, and a learned burnout risk.

Constructs: 1, 2 (early return for an empty roster; helper returns from inside
the loop; `violation` assigned only in one branch), 3 (`or`), 5 (for over the
dynamic number of workers and days, append + stack), 6 (continue on days off
and unrostered workers), 7 (helper functions with their own control flow).
"""
import torch
import torch.nn as nn


def fatigue_trace(hours, recovery):
    """Returns (peak fatigue, first violation day or -1)."""
    f = torch.zeros(())
    peak = torch.zeros(())
    streak = torch.zeros(())
    violation = torch.tensor(-1.0)
    for d in range(hours.shape[0]):
        h = hours[d]
        if h == 0:
            f = f * recovery
            streak = torch.zeros(())
            continue
        streak = streak + 1
        f = f + h / 8.0 * (1.0 + 0.1 * streak)
        peak = torch.maximum(peak, f)
        if h > 12 or streak > 6:
            violation = torch.tensor(float(d))
            return peak, violation
    return peak, violation


def worker_features(hours, peak, violation):
    worked = (hours > 0).float()
    return torch.stack([hours.mean() / 8.0, worked.mean(), peak / 10.0, (violation >= 0).float()])


class RosterChecker(nn.Module):
    def __init__(self, recovery=0.6):
        super().__init__()
        self.recovery = recovery
        self.risk = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, hours):
        # hours: [W, D] scheduled hours per worker per day (0 = off)
        if hours.sum() == 0:
            return torch.zeros(hours.shape[0]), torch.full((hours.shape[0],), -1.0)
        risks, violations = [], []
        for w in range(hours.shape[0]):
            row = hours[w]
            if row.sum() == 0:
                risks.append(torch.zeros(()))
                violations.append(torch.tensor(-1.0))
                continue
            peak, violation = fatigue_trace(row, self.recovery)
            feats = worker_features(row, peak, violation)
            risks.append(torch.sigmoid(self.risk(feats)).squeeze())
            violations.append(violation)
        return torch.stack(risks), torch.stack(violations)


def model():
    torch.manual_seed(11)
    return RosterChecker().eval()


def _roster(rows):
    return torch.tensor(rows, dtype=torch.float32)


def example_inputs():
    return (_roster([
        [8, 8, 0, 8, 8, 8, 0],       # fine
        [8, 13, 8, 0, 8, 8, 8],      # >12h shift on day 1
        [0, 0, 0, 0, 0, 0, 0],       # not rostered -> continue
        [10, 10, 10, 10, 10, 10, 10],  # 7-day streak -> violation day 6
    ]),)


def dynamic_shapes():
    return ({0: torch.export.Dim("workers", min=2, max=16), 1: torch.export.Dim("days", min=2, max=31)},)


def verify_inputs():
    g = torch.Generator().manual_seed(3)
    big = (torch.randint(0, 3, (16, 31), generator=g) * 6).float()  # 0 / 6 / 12 h shifts
    return [
        example_inputs(),                          # all worker paths
        (torch.zeros(3, 5),),                      # empty roster -> early return
        (_roster([[8, 0], [12, 12]]),),            # min days, no violations
        (big,),                                    # max size, streak violations and rest days
    ]
