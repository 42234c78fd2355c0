"""Credit pre-approval on a banking app: hard policy rules + an MLP score + adjustments.

Single application (1, 8) of raw features [age, income, debt_ratio, delinquencies,
months_employed, open_accounts, utilisation, inquiries]. Knock-out rules return early;
otherwise the MLP scores standardised features, the score is nudged by elif-chained
policy adjustments, and the decision is a ternary on the score. Probability
calibration is a config flag (plain Python).
Outputs: approval probability (1,), decision (1,) int64 (1 approve / 0 decline),
reason code (1,) int64.
"""

import torch
import torch.nn as nn


class Scorecard(nn.Module):
    def __init__(self, calibrate=True, cutoff=0.5):
        super().__init__()
        self.register_buffer("mean", torch.tensor([40.0, 55000.0, 0.35, 0.5, 60.0, 4.0, 0.3, 1.0]))
        self.register_buffer("std", torch.tensor([12.0, 30000.0, 0.2, 1.0, 50.0, 3.0, 0.25, 1.5]))
        self.mlp = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 16), nn.ReLU(), nn.Linear(16, 1))
        self.calibrate = calibrate
        self.platt_a, self.platt_b = 1.3, -0.2
        self.cutoff = cutoff

    def forward(self, app):
        age, income, debt, delinq = app[0, 0], app[0, 1], app[0, 2], app[0, 3]
        employed, util = app[0, 4], app[0, 6]
        if age < 18:
            return torch.zeros(1), torch.zeros(1, dtype=torch.long), torch.tensor([1])
        if delinq > 3 or (debt > 0.8 and income < 20000):
            return torch.zeros(1), torch.zeros(1, dtype=torch.long), torch.tensor([2])
        logit = self.mlp((app - self.mean) / self.std).view(1)
        reason = torch.tensor([0])
        if income > 150000 and delinq < 1:
            logit = logit + 1.0
        elif debt > 0.5 or util > 0.9:
            logit = logit - 0.75
            reason = torch.tensor([3])
        elif not (employed >= 6):
            logit = logit - 0.5
            reason = torch.tensor([4])
        if self.calibrate:  # static config flag
            prob = torch.sigmoid(self.platt_a * logit + self.platt_b)
        else:
            prob = torch.sigmoid(logit)
        decision = torch.ones(1, dtype=torch.long) if prob > self.cutoff else torch.zeros(1, dtype=torch.long)
        return prob, decision, reason


def model():
    torch.manual_seed(0)
    return Scorecard().eval()


def _app(age, income, debt, delinq, employed=48.0, accounts=3.0, util=0.3, inquiries=1.0):
    return (torch.tensor([[age, income, debt, delinq, employed, accounts, util, inquiries]]),)


def example_inputs():
    return _app(35.0, 62000.0, 0.3, 0.0)


def verify_inputs():
    return [
        _app(17.0, 12000.0, 0.1, 0.0),  # underage
        _app(45.0, 40000.0, 0.4, 5.0),  # too many delinquencies
        _app(30.0, 15000.0, 0.9, 0.0),  # high debt + low income
        _app(50.0, 210000.0, 0.2, 0.0),  # high income bonus
        _app(28.0, 48000.0, 0.65, 1.0),  # high debt penalty
        _app(23.0, 30000.0, 0.2, 1.0, employed=3.0),  # short employment penalty
        _app(41.0, 90000.0, 0.25, 1.0, util=0.2),  # no adjustment
    ]
