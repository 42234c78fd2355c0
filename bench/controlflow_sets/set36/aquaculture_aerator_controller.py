"""Fish farm: overnight dissolved-oxygen forecast for a pond and how many paddlewheel aerators to run.

Kind T. Constructs: 1, 2, 3, 4, 7, 8.
"""
import torch
import torch.nn as nn


class RespirationModel(nn.Module):
    """Extra oxygen demand [mg/L/h] of fish + plankton as a function of water temperature."""

    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(1, 8), nn.Tanh(), nn.Linear(8, 1))

    def forward(self, temp):
        demand = 0.05 + 0.05 * torch.sigmoid(self.net(temp / 30.0)).squeeze(-1)
        if temp[0] > 30.0:
            # warm water: metabolism up, oxygen solubility down
            demand = demand * 1.5
        return demand


class AeratorController(nn.Module):
    def __init__(self, critical=3.0, hours_to_sunrise=10.0, step_h=0.5):
        super().__init__()
        self.critical = critical
        self.hours_to_sunrise = hours_to_sunrise
        self.step_h = step_h
        self.resp = RespirationModel()

    def _trend(self, do_hist):
        # mg/L per hour from the evening readings (taken every 30 min)
        if do_hist.shape[0] >= 4:
            recent = do_hist[-4:]
            return (recent[-1] - recent[0]) / (3 * self.step_h)
        return (do_hist[-1] - do_hist[0]) / ((do_hist.shape[0] - 1) * self.step_h)

    def forward(self, do_hist, temp):
        slope = self._trend(do_hist).clamp(max=0.0)
        demand = self.resp(temp)
        do = do_hist[-1]
        hours = torch.zeros_like(do)
        while do > self.critical and hours < self.hours_to_sunrise:
            do = do + (slope - demand) * self.step_h
            hours = hours + self.step_h

        if hours > self.hours_to_sunrise - 0.25:
            n_aerators = torch.zeros_like(hours)  # oxygen lasts until sunrise
        elif hours > 4.25:
            n_aerators = torch.ones_like(hours)
        elif hours > 1.25:
            n_aerators = torch.full_like(hours, 2.0)
        else:
            n_aerators = torch.full_like(hours, 3.0)  # emergency: all aerators now
        return n_aerators, hours, do


def model():
    torch.manual_seed(36009)
    return AeratorController().eval()


def _evening(start, slope_per_h, n, seed):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(n, dtype=torch.float32) * 0.5
    return start + slope_per_h * t + 0.03 * torch.randn(n, generator=g)


def example_inputs():
    # 8 readings, DO falling 0.4 mg/L/h from 7.2 -> hits critical mid-night
    return (_evening(7.2, -0.4, 8, 1), torch.tensor([27.0]))


def dynamic_shapes():
    readings = torch.export.Dim("readings", min=2, max=48)
    return ({0: readings}, None)


def verify_inputs():
    return [
        example_inputs(),                                   # loop runs several steps, stops at critical -> 1 aerator
        (_evening(8.5, 0.1, 10, 2), torch.tensor([25.0])),  # DO rising: loop runs until sunrise -> 0 aerators
        (_evening(5.4, -0.6, 6, 3), torch.tensor([31.5])),  # warm water, fast decline -> 2 aerators
        (_evening(3.6, -0.5, 3, 4), torch.tensor([28.0])),  # 3 readings (short trend), critical within the hour -> 3
        (_evening(2.9, -0.3, 2, 5), torch.tensor([26.0])),  # already below critical: loop runs 0 times -> 3
    ]
