"""Neonatal jaundice phototherapy advisor.

Takes a newborn's serial total serum bilirubin (TSB) measurements and risk
profile, compares the latest value with age-specific phototherapy / exchange
thresholds (lower for preterm or at-risk babies), estimates the rate of rise and
lets a small network predict the TSB 24 h ahead. Returns an action level
(0 recheck, 1 phototherapy, 2 escalate), the prediction and hours to recheck.

Kind T. Constructs: 1 (if/elif/else on tensor comparisons), 2 (early return in a
branch; branches assign the same variables), 3 (`and not` / `or` on tensor
predicates), 7 (branching helper function), 8 (branch on the number of
measurements, a dynamic size).
"""
import torch
import torch.nn as nn


def phototherapy_threshold(age_h, ga_weeks, risk_flag):
    """Hour-specific phototherapy threshold in mg/dL (simplified nomogram)."""
    if ga_weeks >= 38 and not risk_flag:
        base, slope, cap = 8.0, 0.12, 21.0
    elif ga_weeks >= 35:
        base, slope, cap = 6.5, 0.10, 18.0
    else:
        base, slope, cap = 5.0, 0.08, 15.0
    return torch.clamp(base + slope * age_h, max=cap)


def rate_of_rise(age_h, tsb):
    """mg/dL per hour: least-squares slope when there are enough points."""
    if tsb.shape[0] >= 3:
        t = age_h - age_h.mean()
        return (t * (tsb - tsb.mean())).sum() / (t * t).sum()
    return (tsb[-1] - tsb[0]) / (age_h[-1] - age_h[0]).clamp(min=1.0)


class JaundiceAdvisor(nn.Module):
    def __init__(self, hidden=16, exchange_margin=5.0, rapid_rise=0.3):
        super().__init__()
        self.exchange_margin = exchange_margin
        self.rapid_rise = rapid_rise
        self.predictor = nn.Sequential(nn.Linear(5, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, labs, profile):
        # labs: (T, 2) [age in hours, TSB mg/dL]; profile: (3,) [GA weeks, risk factors 0/1, birth weight kg]
        age, tsb = labs[:, 0], labs[:, 1]
        ga, risk, weight = profile[0], profile[1] > 0.5, profile[2]
        photo = phototherapy_threshold(age[-1], ga, risk)
        exchange = photo + self.exchange_margin

        if tsb[-1] >= exchange:
            # skip any modelling: this baby needs escalation now
            return torch.tensor([2.0]), tsb[-1:].clone(), torch.tensor([0.0])

        rate = rate_of_rise(age, tsb)
        feats = torch.stack([tsb[-1] / 20.0, rate, age[-1] / 100.0, ga / 40.0, weight / 4.0])
        predicted = tsb[-1:] + 24.0 * rate.clamp(min=0.0) + torch.tanh(self.predictor(feats))

        if tsb[-1] >= photo or rate > self.rapid_rise:
            level = torch.tensor([1.0])
            recheck = torch.tensor([6.0])
        else:
            level = torch.tensor([0.0])
            margin = (photo - tsb[-1:]) / rate.clamp(min=0.05)
            recheck = torch.clamp(margin / 2.0, min=6.0, max=48.0)
        return level, predicted, recheck


def model():
    torch.manual_seed(3402)
    return JaundiceAdvisor().eval()


def example_inputs():
    # term baby, no risk factors, 3 measurements, slowly rising, below threshold
    labs = torch.tensor([[20.0, 5.0], [36.0, 7.1], [50.0, 8.9]])
    return (labs, torch.tensor([39.0, 0.0, 3.4]))


def dynamic_shapes():
    T = torch.export.Dim("measurements", min=2, max=24)
    return ({0: T}, None)


def verify_inputs():
    return [
        # term/no-risk nomogram, 3 points (least squares), below threshold -> recheck (level 0)
        example_inputs(),
        # term baby WITH risk factors (-> 35-37 wk nomogram), 2 points (simple difference),
        # above phototherapy threshold -> level 1
        (torch.tensor([[30.0, 9.0], [48.0, 13.5]]), torch.tensor([39.0, 1.0, 3.1])),
        # preterm 33 weeks, 4 points, TSB far above exchange threshold -> early return level 2
        (torch.tensor([[12.0, 8.0], [24.0, 12.0], [36.0, 16.5], [48.0, 22.0]]), torch.tensor([33.0, 0.0, 2.0])),
        # 36 weeks, no risk (2nd nomogram via ga >= 35), below threshold but rising fast -> level 1 via rate
        (torch.tensor([[10.0, 2.0], [18.0, 5.5]]), torch.tensor([36.0, 0.0, 2.7])),
        # term, 5 points, flat and low -> level 0, long recheck interval (clamped at 48 h)
        (torch.tensor([[24.0, 6.0], [48.0, 6.2], [72.0, 6.1], [96.0, 6.3], [120.0, 6.2]]),
         torch.tensor([40.0, 0.0, 3.8])),
    ]
