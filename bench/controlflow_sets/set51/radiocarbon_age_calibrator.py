"""Radiocarbon lab: conventional 14C age -> calibrated calendar age.

The calibration curve is an analytic trend plus a small learned wiggle term;
calendar ages are found by fixed-point iteration until every sample in the
run has converged.
"""
import torch
import torch.nn as nn

LIBBY_MEAN_LIFE = 8033.0


class CalibrationCurve(nn.Module):
    def __init__(self):
        super().__init__()
        self.wiggle = nn.Sequential(nn.Linear(1, 16), nn.Tanh(), nn.Linear(16, 1), nn.Tanh())

    def forward(self, cal_bp):
        trend = cal_bp - 250.0 * torch.sin(cal_bp / 2500.0)
        return trend + 40.0 * self.wiggle((cal_bp / 10000.0).unsqueeze(-1)).squeeze(-1)


class RadiocarbonCalibrator(nn.Module):
    def __init__(self, tol_years=0.5, max_iter=100):
        super().__init__()
        self.curve = CalibrationCurve()
        self.tol_years = tol_years
        self.max_iter = max_iter

    def conventional_age(self, fm, fm_err):
        age = -LIBBY_MEAN_LIFE * torch.log(fm)
        sigma = LIBBY_MEAN_LIFE * fm_err / fm
        return age, sigma

    def invert_curve(self, c14_age):
        cal = c14_age.clone()
        resid = c14_age - self.curve(cal)
        it = 0
        while resid.abs().max() > self.tol_years and it < self.max_iter:
            cal = cal + resid
            resid = c14_age - self.curve(cal)
            it += 1
        return cal

    def forward(self, fm, fm_err):
        if (fm >= 1.0).all():
            # all post-bomb (modern) samples: calendar age is "present"
            return torch.zeros_like(fm), torch.zeros_like(fm)
        fm = fm.clamp(max=0.999999)
        age, sigma = self.conventional_age(fm, fm_err)
        cal = self.invert_curve(age)
        cal_sigma = sigma
        if (sigma > 1000).any():
            # very old / low count samples: inflate error for curve uncertainty
            cal_sigma = sigma * 1.2 + 50.0
        return cal, cal_sigma


def model():
    torch.manual_seed(5106)
    return RadiocarbonCalibrator().eval()


def example_inputs():
    fm = torch.tensor([0.95, 0.80, 0.61, 0.42, 0.30, 0.55])
    return (fm, torch.full((6,), 0.004))


def dynamic_shapes():
    n = torch.export.Dim("samples", min=2, max=96)
    return ({0: n}, {0: n})


def verify_inputs():
    return [
        # example: several fixed-point iterations, small errors (no inflation)
        example_inputs(),
        # min: both post-bomb -> early return
        (torch.tensor([1.05, 1.10]), torch.tensor([0.003, 0.003])),
        # max batch: old samples with big relative error -> inflate branch
        (torch.linspace(0.05, 0.99, 96), torch.full((96,), 0.01)),
        # already calibrated at the start? near-modern sample, loop runs too
        (torch.tensor([0.999, 1.2, 0.9]), torch.tensor([0.002, 0.002, 0.002])),
    ]
