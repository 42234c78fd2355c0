"""Insulin bolus advisor with safety rules.

Inputs: CGM history (T,) in mg/dL at 5-minute spacing (T dynamic), announced carbs (1,)
in grams and insulin on board (1,) in units. A small network predicts the 30-minute
glucose change from the recent history; the bolus is carbs/ICR + correction - IOB, then
safety rules apply: no insulin when low, reduced dose when falling fast, no
micro-corrections without a meal, hard cap. Outputs the dose and a reason code.
"""
import torch
from torch import nn
import torch.nn.functional as F

HIST = 12


class GlucosePredictor(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(HIST, 32), nn.Tanh(), nn.Linear(32, 1))

    def forward(self, cgm):
        if cgm.shape[0] < HIST:
            cgm = torch.cat([cgm[:1].expand(HIST - cgm.shape[0]), cgm])
        x = (cgm[-HIST:] - 120.0) / 40.0
        return 20.0 * torch.tanh(self.net(x))[0]


class InsulinAdvisor(nn.Module):
    def __init__(self):
        super().__init__()
        self.pred = GlucosePredictor()
        self.icr = 10.0       # g per unit
        self.isf = 40.0       # mg/dL per unit
        self.target = 110.0
        self.max_bolus = 8.0

    def forward(self, cgm: torch.Tensor, carbs: torch.Tensor, iob: torch.Tensor):
        bg = cgm[-1]
        if bg < 70.0:
            return torch.zeros(()), torch.full((), 1, dtype=torch.long)
        trend = (cgm[-1] - cgm[-4]) / 15.0 if cgm.shape[0] >= 4 else (cgm[-1] - cgm[0]) / (5.0 * (cgm.shape[0] - 1))
        bg30 = bg + self.pred(cgm)
        dose = carbs[0] / self.icr + (bg30 - self.target) / self.isf - iob[0]
        reason = torch.zeros((), dtype=torch.long)
        if trend < -2.0 and bg < 150.0:
            dose = dose * 0.5
            reason = torch.full((), 2, dtype=torch.long)
        if not carbs[0] >= 1.0 and dose < 0.5:
            return torch.zeros(()), torch.full((), 3, dtype=torch.long)
        if dose < 0:
            dose = torch.zeros(())
        elif dose > self.max_bolus:
            dose = torch.full((), self.max_bolus)
            reason = torch.full((), 4, dtype=torch.long)
        return dose, reason


def model():
    torch.manual_seed(15)
    return InsulinAdvisor().eval()


def _case(T, start, slope, carbs, iob):
    cgm = start + slope * torch.arange(T, dtype=torch.float32) + 3.0 * torch.sin(torch.arange(T) * 1.7)
    return cgm, torch.tensor([carbs]), torch.tensor([iob])


def example_inputs():
    return _case(24, 140.0, 1.0, 45.0, 0.5)


def dynamic_shapes():
    return ({0: torch.export.Dim("T", min=2, max=288)}, None, None)


def verify_inputs():
    return [
        _case(6, 90.0, -5.0, 30.0, 0.0),     # low at the end: no insulin
        _case(3, 170.0, -15.0, 60.0, 0.0),   # short history, falling fast (ternary else path)
        _case(36, 180.0, 0.5, 0.0, 0.0),     # correction only (no meal), dose >= 0.5
        _case(12, 120.0, 0.0, 0.0, 0.3),     # no meal, small dose -> zero
        _case(48, 300.0, 2.0, 120.0, 0.0),   # capped
        _case(20, 120.0, -0.5, 5.0, 3.0),    # negative dose -> zero
        _case(10, 300.0, -12.0, 30.0, 0.0),  # falling fast but still high: full dose
    ]
