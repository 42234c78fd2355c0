"""Acute ischaemic stroke: IV thrombolysis (tPA) eligibility and BP target.

Inputs are the serial vital-sign readings taken in the ED since arrival
(minutes since last-known-well, systolic BP, diastolic BP, glucose mg/dL) and
the 11 NIHSS item scores. The output is a learned benefit probability that is
gated by the hard protocol exclusions, the NIHSS total, and the blood-pressure
target the team must reach before the bolus.
"""
import torch
import torch.nn as nn

# NIHSS items counted as clearly disabling even when the total is small
DISABLING_ITEMS = [2, 8]   # visual fields, best language


class TpaEligibility(nn.Module):
    def __init__(self):
        super().__init__()
        self.window_min = 270.0        # 4.5 h from last known well
        self.net = nn.Sequential(nn.Linear(15, 24), nn.ReLU(), nn.Linear(24, 1))

    def forward(self, vitals, nihss):
        onset_min, sbp, dbp, glucose = vitals[-1].unbind()
        severity = nihss.sum()
        if onset_min > self.window_min or glucose < 50:
            # outside the time window, or a hypoglycaemic stroke mimic
            return torch.zeros(()), severity, torch.zeros(2)

        if vitals.shape[0] >= 6:
            recent = vitals[-6:]
        else:
            recent = vitals
        max_sbp = recent[:, 1].max()
        max_dbp = recent[:, 2].max()

        bp_target = torch.stack([max_sbp, max_dbp])
        if max_sbp > 185 or max_dbp > 110:
            # labetalol / nicardipine first; lytics only once below 185/110
            bp_target = torch.tensor([180.0, 105.0])
            penalty = 0.6
        elif max_sbp < 90:
            penalty = 0.8              # hypotension: look for another cause first
        else:
            penalty = 1.0

        x = torch.cat([nihss / 4.0,
                       torch.stack([onset_min / 270.0, max_sbp / 200.0, max_dbp / 120.0, glucose / 200.0])])
        prob = torch.sigmoid(self.net(x)).squeeze(0) * penalty
        if severity < 4 and not (nihss[DISABLING_ITEMS] > 0).any():
            # minor, non-disabling deficit: thrombolysis not recommended
            prob = prob * 0.2
        return prob, severity, bp_target


def model():
    torch.manual_seed(5503)
    return TpaEligibility().eval()


def _case(n, onset_end, sbp, dbp, glucose, nihss, seed):
    g = torch.Generator().manual_seed(seed)
    minutes = torch.linspace(onset_end - 8.0 * (n - 1), onset_end, n)
    s = sbp + 6.0 * torch.randn(n, generator=g)
    d = dbp + 4.0 * torch.randn(n, generator=g)
    glu = glucose + 5.0 * torch.rand(n, generator=g)
    return (torch.stack([minutes, s, d, glu], dim=1), torch.tensor(nihss, dtype=torch.float32))


MODERATE = [1, 1, 1, 2, 2, 1, 1, 0, 2, 1, 0]
MINOR_NON_DISABLING = [0, 0, 0, 0, 1, 1, 0, 0, 0, 1, 0]
MINOR_APHASIC = [0, 0, 0, 0, 0, 1, 0, 0, 2, 0, 0]


def example_inputs():
    return _case(8, 150.0, 160.0, 90.0, 120.0, MODERATE, 1)


def dynamic_shapes():
    readings = torch.export.Dim("readings", min=2, max=64)
    return ({0: readings}, None)


def verify_inputs():
    return [
        example_inputs(),                                                  # >=6 readings, normal BP, moderate stroke
        _case(2, 300.0, 150.0, 85.0, 110.0, MODERATE, 2),                  # readings=min, beyond 4.5 h -> early return
        _case(64, 200.0, 200.0, 115.0, 140.0, MODERATE, 3),                # readings=max, BP too high -> target 180/105
        _case(3, 60.0, 140.0, 80.0, 35.0, MODERATE, 4),                    # hypoglycaemia mimic -> early return
        _case(4, 90.0, 75.0, 45.0, 100.0, MINOR_NON_DISABLING, 5),         # <6 readings, hypotension, minor non-disabling
        _case(5, 120.0, 150.0, 85.0, 100.0, MINOR_APHASIC, 6),             # minor total but disabling aphasia: no down-weight
    ]
