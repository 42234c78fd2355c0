"""Reptile terrarium controller: basking-lamp duty cycle and mister.

Three probes (basking spot, cool side, humidity) are calibrated, averaged over
the last few samples, and the lamp duty is raised in 10% steps until a small
learned thermal model predicts the basking spot reaches the day / night
target.  If the cool side is already too hot the lamp is switched off and the
vent fan is requested.

KIND T.  Constructs: 1 (ternary on hour.item(), if on a reduction),
2 (early return in a branch), 3 (and in a while condition), 4 (while with a
tensor condition, loop-carried duty/projection), 9 (ModuleList of probe
calibrations, species config).
"""
import torch
import torch.nn as nn
from torch.export import Dim

KIND = "T"
CONSTRUCTS = (1, 2, 3, 4, 9)

SPECIES = {
    # basking day, basking night, cool-side max, min humidity %
    "bearded_dragon": (40.0, 24.0, 30.0, 30.0),
    "ball_python": (32.0, 26.0, 28.0, 55.0),
}


class TerrariumHeatController(nn.Module):
    def __init__(self, species="bearded_dragon", avg_samples=5):
        super().__init__()
        self.bask_day, self.bask_night, self.cool_max, self.min_humidity = SPECIES[species]
        self.avg_samples = avg_samples
        self.calib = nn.ModuleList([nn.Linear(1, 1) for _ in range(3)])
        with torch.no_grad():
            for cal, (gain, offset) in zip(self.calib, [(1.02, -0.3), (0.98, 0.2), (1.0, 1.5)]):
                cal.weight.fill_(gain)
                cal.bias.fill_(offset)
        self.thermal = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))

    def predicted_rise(self, duty, humidity, cool):
        x = torch.stack([duty, humidity / 100.0, cool / 40.0])
        return 15.0 * duty * torch.sigmoid(self.thermal(x)).squeeze(-1)

    def forward(self, readings, hour):
        # readings: (T, 3) raw probe values [bask degC, cool degC, humidity %]
        # hour: () local hour of day
        cols = []
        for i, cal in enumerate(self.calib):
            cols.append(cal(readings[:, i:i + 1]))
        calibrated = torch.cat(cols, dim=1)
        recent = calibrated[-self.avg_samples:].mean(dim=0)
        bask, cool, humidity = recent[0], recent[1], recent[2]

        target = self.bask_day if 7 <= hour.item() < 19 else self.bask_night
        mister = (humidity < self.min_humidity).float()
        if cool > self.cool_max:
            # whole enclosure overheating: lamp off, vent fan on
            return torch.zeros(()), mister, torch.ones(())

        duty = torch.zeros(())
        projected = bask
        while projected < target and duty < 0.95:
            duty = duty + 0.1
            projected = bask + self.predicted_rise(duty, humidity, cool)
        return duty, mister, torch.zeros(())


def model():
    torch.manual_seed(61002)
    return TerrariumHeatController("bearded_dragon").eval()


def make_readings(bask, cool, hum, n, seed):
    g = torch.Generator().manual_seed(seed)
    base = torch.tensor([bask, cool, hum])
    return base + 0.1 * torch.randn(n, 3, generator=g)


def example_inputs():
    return (make_readings(34.0, 26.0, 35.0, 12, seed=1), torch.tensor(10.0))


def dynamic_shapes():
    return ({0: Dim("samples", min=2, max=240)}, None)


def verify_inputs():
    return [
        # daytime, basking 34 < 40: lamp steps up a few times until target reached
        example_inputs(),
        # cool side 33 > 30: early return (lamp off, fan on); humid -> mister off
        (make_readings(38.0, 33.0, 45.0, 3, seed=2), torch.tensor(14.0)),
        # night (hour 22): basking 30 already above 24 -> while runs 0 times; dry -> mister
        (make_readings(30.0, 25.0, 20.0, 8, seed=3), torch.tensor(22.0)),
        # early morning (hour 5 < 7 -> night target) basking 23.8 < 24: exactly one step
        (make_readings(23.6, 22.0, 40.0, 30, seed=4), torch.tensor(5.0)),
        # daytime, cold enclosure (basking 18): target unreachable, loop stops at duty cap
        (make_readings(18.0, 20.0, 40.0, 60, seed=5), torch.tensor(12.0)),
    ]
