"""T: anticoagulation clinic dose adjuster from an INR history.

inr (T,) recent INR measurements (oldest first), weekly_dose (1,) mg, patient (5,) features.
Returns (new weekly dose (1,), days until next test (1,)).
Constructs: 1, 2, 3, 7
"""
import torch
import torch.nn as nn


class WarfarinAdjuster(nn.Module):
    def __init__(self):
        super().__init__()
        self.risk = nn.Sequential(nn.Linear(5 + 3, 8), nn.Tanh(), nn.Linear(8, 1))

    def _bleed_risk(self, inr, patient):
        feats = torch.cat([patient, torch.stack([inr.mean(), inr.max(), inr[-1]])])
        return torch.sigmoid(self.risk(feats))

    def _recheck_days(self, inr):
        in_range = (inr >= 2.0) & (inr <= 3.0)
        if in_range.all():
            return torch.tensor([28.0])
        if in_range[-1]:
            return torch.tensor([14.0])
        return torch.tensor([7.0])

    def forward(self, inr, weekly_dose, patient):
        latest = inr[-1]
        risk = self._bleed_risk(inr, patient)
        # supratherapeutic: hold and recheck soon
        if latest > 5.0:
            return torch.zeros(1), torch.tensor([2.0])
        if latest > 3.0:
            factor = 0.85 if latest > 4.0 else 0.9
            dose = weekly_dose * (factor - 0.05 * risk)
        elif latest < 2.0 and not (inr > 3.0).any():
            dose = weekly_dose * 1.1
        elif latest < 2.0:
            dose = weekly_dose * 1.05  # had recently overshot: cautious increase
        else:
            dose = weekly_dose
        return dose, self._recheck_days(inr)


def model():
    torch.manual_seed(4605)
    return WarfarinAdjuster().eval()


_P = torch.tensor([0.7, 0.3, 1.0, 0.0, 0.5])


def example_inputs():
    return (torch.tensor([2.4, 2.6, 2.2, 2.8]), torch.tensor([35.0]), _P)


def dynamic_shapes():
    return ({0: torch.export.Dim("tests", min=2, max=32)}, None, None)


def verify_inputs():
    return [
        example_inputs(),                                               # all in range: keep dose, 28 days
        (torch.tensor([2.5, 5.8]), torch.tensor([30.0]), _P),           # >5: hold, early return
        (torch.tensor([2.2, 1.5, 3.4]), torch.tensor([30.0]), _P),      # 3..4: reduce by 0.9, last out of range -> 7 days
        (torch.tensor([2.5, 2.5, 4.5]), torch.tensor([30.0]), _P),      # 4..5: reduce by 0.85
        (torch.tensor([2.1, 1.6, 1.5, 1.7, 1.4] * 6), torch.tensor([40.0]), _P),  # low, never >3: +10%
        (torch.tensor([3.6, 2.5, 1.6]), torch.tensor([40.0]), _P),      # low after overshoot: +5%
        (torch.tensor([1.5, 2.5]), torch.tensor([40.0]), _P),           # in range now but not all -> 14 days
    ]
