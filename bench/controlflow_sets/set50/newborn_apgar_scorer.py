"""Delivery-room APGAR scoring for a batch of newborns, plus a learned
risk estimate for NICU admission.

Per infant the five APGAR criteria (heart rate, breathing, muscle tone,
reflex irritability, colour from pre-ductal SpO2) are each scored 0/1/2 with
the textbook cut-offs.  The total drives the recommended action:
0-3 resuscitate, 4-6 stimulate + oxygen, 7-10 routine care.
"""
import torch
import torch.nn as nn


def score_heart_rate(hr):
    if hr < 1.0:
        return 0            # absent
    elif hr < 100.0:
        return 1
    return 2


def score_graded(value, low, high):
    # generic 0/1/2 grading for tone / reflex / breathing effort in [0, 1]
    if value < low:
        return 0
    return 1 if value < high else 2


def score_colour(spo2):
    if spo2 < 70.0:
        return 0            # blue / pale
    if spo2 < 90.0:
        return 1            # acrocyanosis
    return 2


class ApgarScorer(nn.Module):
    def __init__(self, minute=1):
        super().__init__()
        self.risk_head = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 1))
        self.register_buffer("mean", torch.tensor([120.0, 0.5, 0.5, 0.5, 85.0]))
        self.register_buffer("std", torch.tensor([40.0, 0.3, 0.3, 0.3, 10.0]))
        # the 5-minute score is given more weight in the risk model
        self.minute_weight = 1.0 if minute == 1 else 1.5

    def total_score(self, v):
        return (score_heart_rate(v[0])
                + score_graded(v[1], 0.2, 0.6)
                + score_graded(v[2], 0.25, 0.7)
                + score_graded(v[3], 0.3, 0.75)
                + score_colour(v[4]))

    def forward(self, vitals):
        scores = []
        for i in range(vitals.shape[0]):
            scores.append(torch.tensor(self.total_score(vitals[i])))
        scores = torch.stack(scores)

        actions = []
        for i in range(scores.shape[0]):
            if scores[i] <= 3:
                actions.append(torch.tensor(2))   # resuscitate
            elif scores[i] <= 6:
                actions.append(torch.tensor(1))   # stimulate + O2
            else:
                actions.append(torch.tensor(0))   # routine
        actions = torch.stack(actions)

        feats = torch.cat([(vitals - self.mean) / self.std,
                           self.minute_weight * scores.float().unsqueeze(1) / 10.0], dim=1)
        risk = torch.sigmoid(self.risk_head(feats)).squeeze(1)
        return scores, actions, risk


def model():
    torch.manual_seed(503)
    return ApgarScorer().eval()


def example_inputs():
    return (torch.tensor([
        [140.0, 0.9, 0.8, 0.9, 95.0],   # vigorous: 10
        [90.0, 0.4, 0.5, 0.5, 80.0],    # 5
        [0.0, 0.1, 0.1, 0.1, 60.0],     # 0
        [130.0, 0.7, 0.3, 0.8, 92.0],   # 2+2+1+2+2 = 9
    ]),)


def dynamic_shapes():
    return ({0: torch.export.Dim("infants", min=2, max=64)},)


def verify_inputs():
    g = torch.Generator().manual_seed(7)
    ranges_lo = torch.tensor([0.0, 0.0, 0.0, 0.0, 55.0])
    ranges_hi = torch.tensor([170.0, 1.0, 1.0, 1.0, 99.0])
    ward = ranges_lo + (ranges_hi - ranges_lo) * torch.rand(64, 5, generator=g)
    return [
        example_inputs(),    # one infant in each action class (routine / stimulate / resuscitate)
        (torch.tensor([[150.0, 0.9, 0.9, 0.9, 97.0],
                       [110.0, 0.65, 0.75, 0.8, 91.0]]),),  # two vigorous infants: every score 2, routine
        (ward,),             # 64 random infants: all score bins of every criterion
    ]
