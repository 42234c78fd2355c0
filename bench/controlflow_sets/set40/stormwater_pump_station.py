"""Stormwater pump station: simulate the wet-well level over a rain forecast and
decide how many pumps run each step (float-switch start levels, common stop level,
overflow to the combined sewer when the well is full).

Kind T; constructs 1, 2, 3, 5, 6, 9."""
import torch
import torch.nn as nn
from torch.export import Dim


class PumpStation(nn.Module):
    def __init__(self):
        super().__init__()
        torch.manual_seed(401)
        # learned correction of the runoff coefficient from (intensity, soil moisture, antecedent rain)
        self.runoff = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 1))
        self.catchment = 0.004        # m3/s per mm/h at full runoff
        self.well_area = 20.0         # m2
        self.dt = 30.0                # s per step
        self.pump_q = 0.1             # m3/s per pump
        self.start_levels = [1.5, 2.2, 2.8]   # duty / assist / standby float switches (m)
        self.stop_level = 0.6
        self.overflow_level = 3.5

    def forward(self, rain, level0):
        # rain: [T, 3], level0: [1] initial well level in metres
        coef = 0.5 + 0.5 * torch.sigmoid(self.runoff(rain)).squeeze(-1)
        inflow = rain[:, 0] * self.catchment * coef
        level = level0[0]
        running = torch.zeros((), dtype=rain.dtype)
        levels, pumps, spills = [], [], []
        for t in range(rain.shape[0]):
            level = level + inflow[t] * self.dt / self.well_area
            n_on = torch.zeros((), dtype=rain.dtype)
            for start in self.start_levels:
                if level > start:
                    n_on = n_on + 1
            running = torch.maximum(running, n_on)
            if running == 0:
                # all pumps idle, nothing else to do this step
                levels.append(level)
                pumps.append(running)
                spills.append(torch.zeros_like(level))
                continue
            level = level - running * self.pump_q * self.dt / self.well_area
            if running > 0 and level < self.stop_level:
                level = torch.clamp(level, min=0.0)
                running = torch.zeros_like(running)
            spill = torch.zeros_like(level)
            if level > self.overflow_level:
                spill = (level - self.overflow_level) * self.well_area
                level = torch.full_like(level, self.overflow_level)
            levels.append(level)
            pumps.append(running)
            spills.append(spill)
        return torch.stack(levels), torch.stack(pumps), torch.stack(spills)


def model():
    return PumpStation().eval()


def _storm(T, peak, seed):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(T, dtype=torch.float32)
    shape = torch.exp(-((t - T / 3) / (T / 6 + 1)) ** 2)
    intensity = peak * shape
    soil = torch.rand(T, generator=g) * 0.5 + 0.3
    ante = torch.rand(T, generator=g)
    return torch.stack([intensity, soil, ante], dim=1)


def example_inputs():
    return (_storm(24, 60.0, 1), torch.tensor([0.8]))


def dynamic_shapes():
    steps = Dim("steps", min=2, max=96)
    return ({0: steps}, None)


def verify_inputs():
    return [
        example_inputs(),                                   # storm: pumps start, latch, stop; no overflow
        (torch.zeros(6, 3), torch.tensor([0.3])),           # dry weather: pumps never start, continue every step
        (_storm(2, 10.0, 2), torch.tensor([1.62])),         # min length: duty pump starts and runs both steps
        (_storm(96, 400.0, 3), torch.tensor([2.0])),        # max length, cloudburst: all three pumps, overflow, later drains to stop
        (torch.tensor([[0.0, 0.5, 0.5], [5.0, 0.5, 0.5], [0.0, 0.5, 0.5]]),
         torch.tensor([2.55])),                             # starts above assist level: two pumps run, drains below stop level
    ]
