"""Insulin-pump bolus advisor: CGM trace + meal carbs -> bolus, hypo alarm, rescue carbs."""
import torch
from torch import nn
from torch.export import Dim


class GlucoseBolusAdvisor(nn.Module):
    def __init__(self):
        super().__init__()
        self.trend = nn.Conv1d(1, 4, kernel_size=5, padding=2)
        self.head = nn.Linear(4, 1)
        self.register_buffer("isf", torch.tensor(40.0))   # mg/dL per unit
        self.register_buffer("icr", torch.tensor(10.0))   # grams per unit
        self.target = 110.0
        self.max_bolus = 15.0

    def forward(self, cgm, carbs):
        last = cgm[-1]
        slope = (cgm[-1] - cgm[-4]) / 3.0
        feat = self.trend(((cgm - 120.0) / 50.0).view(1, 1, -1)).mean(-1)
        adj = torch.tanh(self.head(feat)).view(1) * 0.1
        alarm = torch.zeros(1)
        if last < 70 or (last < 90 and slope < -2.0):
            # hypoglycaemia risk: no insulin, suggest fast carbs
            return torch.zeros(1), torch.ones(1), 15.0 + 0.0 * carbs
        meal = carbs / self.icr
        if last > 180 and slope > 0:
            corr = (last - self.target) / self.isf
        elif last > self.target:
            corr = 0.5 * (last - self.target) / self.isf
        else:
            corr = torch.zeros(())
        bolus = (meal + corr) * (1.0 + adj)
        if bolus.item() > self.max_bolus:
            bolus = torch.full_like(bolus, self.max_bolus)
            alarm = torch.full_like(alarm, 0.5)
        return bolus, alarm, torch.zeros(1)


def model():
    torch.manual_seed(0)
    return GlucoseBolusAdvisor().eval()


def _trace(start, end, n):
    return torch.linspace(start, end, n)


def example_inputs():
    return (_trace(150.0, 200.0, 12), torch.tensor([45.0]))


def verify_inputs():
    return [
        (_trace(95.0, 60.0, 8), torch.tensor([30.0])),      # hypo: last < 70
        (_trace(110.0, 85.0, 8), torch.tensor([30.0])),     # falling fast below 90 -> hypo
        (_trace(84.0, 86.0, 20), torch.tensor([20.0])),     # low-normal, stable -> meal only
        (_trace(260.0, 250.0, 30), torch.tensor([150.0])),  # high but falling, big meal -> capped
    ]


def dynamic_shapes():
    return ({0: Dim("samples", min=6, max=288)}, None)
