"""Glaucoma follow-up: flags eyes whose intraocular pressure (IOP) history suggests risk.

Input is a visit history of IOP readings for both eyes (mmHg) and the visit day numbers.
Per eye the model computes mean, fluctuation and the yearly IOP slope, then applies clinic
rules (peak/slope -> high risk, elevated mean with large fluctuation -> moderate), and a small
MLP turns the features into a referral score.  With fewer than 4 visits there is not enough
history for a trend, so only the baseline is reported.
"""
import torch
import torch.nn as nn
from torch.export import Dim

EYES = ("OD", "OS")


def yearly_slope(days, values):
    """Least-squares slope of values (V, E) against days (V,), in units per year."""
    t = days - days.mean()
    var = (t * t).mean()
    if var < 1.0:
        # all visits on (almost) the same day: no trend can be estimated
        return torch.zeros(values.shape[1])
    return (t[:, None] * (values - values.mean(0))).mean(0) / var * 365.0


class IOPProgressionFlagger(nn.Module):
    def __init__(self, peak_limit=30.0, slope_limit=1.5, mean_limit=21.0, fluct_limit=3.0):
        super().__init__()
        self.peak_limit = peak_limit
        self.slope_limit = slope_limit
        self.mean_limit = mean_limit
        self.fluct_limit = fluct_limit
        self.score = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))

    def forward(self, iop, days):
        base = iop.mean(0)
        if iop.shape[0] < 4:
            features = torch.stack([base, torch.zeros_like(base), torch.zeros_like(base)], dim=1)
            return features, torch.zeros(len(EYES))

        slope = yearly_slope(days, iop)
        fluct = iop.amax(0) - iop.amin(0)
        peak = iop.amax(0)
        risks = []
        for e in range(len(EYES)):
            if peak[e] > self.peak_limit or slope[e] > self.slope_limit:
                level = 2.0
            elif base[e] > self.mean_limit and not fluct[e] < self.fluct_limit:
                level = 1.0
            else:
                level = 0.0
            feat = torch.stack([base[e] / 20.0, slope[e], fluct[e] / 10.0, torch.tensor(level)])
            risks.append(torch.sigmoid(self.score(feat)).squeeze(0) + level)
        features = torch.stack([base, slope, fluct], dim=1)
        return features, torch.stack(risks)


def model():
    torch.manual_seed(653)
    return IOPProgressionFlagger().eval()


def _history(od, os_, days):
    return torch.stack([torch.tensor(od), torch.tensor(os_)], dim=1), torch.tensor(days)


def example_inputs():
    # 6 visits; OD rising ~3 mmHg/yr (high risk), OS stable normal (low)
    return _history([18.0, 18.5, 19.5, 20.0, 21.0, 22.5], [15.0, 14.5, 15.5, 15.0, 14.0, 15.0],
                    [0.0, 120.0, 240.0, 365.0, 480.0, 600.0])


def dynamic_shapes():
    visits = Dim("visits", min=2, max=64)
    return ({0: visits}, {0: visits})


def verify_inputs():
    return [
        example_inputs(),  # OD: slope > limit (or-second-operand) -> 2; OS: normal -> 0
        # 3 visits only: size branch -> baseline-only early return
        _history([22.0, 23.0, 22.5], [16.0, 16.5, 16.0], [0.0, 90.0, 180.0]),
        # OD peak 33 -> high (or short-circuits); OS mean 23 with big fluctuation -> moderate
        _history([24.0, 33.0, 25.0, 24.0, 23.0], [20.0, 26.0, 22.0, 24.0, 23.0],
                 [0.0, 100.0, 200.0, 300.0, 400.0]),
        # OD elevated mean but steady (fluct < 3) -> not-moderate, low; OS stable low
        _history([23.0, 23.5, 23.0, 22.5, 23.0, 23.5, 23.0, 22.5], [17.0, 17.5, 17.0, 16.5, 17.0, 17.5, 17.0, 16.5],
                 [0.0, 30.0, 60.0, 90.0, 400.0, 430.0, 460.0, 490.0]),
        # 4 readings taken on the same day (diurnal curve): var < 1 -> zero slope
        _history([19.0, 24.0, 22.0, 20.0], [18.0, 25.0, 21.0, 19.0], [10.0, 10.0, 10.0, 10.0]),
    ]
