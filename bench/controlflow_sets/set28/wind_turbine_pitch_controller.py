"""Wind turbine supervisory control: operating region per wind sample, Newton solve of blade pitch above rated."""
import torch
import torch.nn as nn


class PitchController(nn.Module):
    def __init__(self):
        super().__init__()
        self.cut_in = 3.0
        self.rated_speed = 12.0
        self.cut_out = 25.0
        self.cp_max = 0.45
        self.a = 0.08
        self.b = 0.004
        self.tol_deg = 0.01
        self.max_newton = 5     # iteration budget per control cycle

    def cp(self, pitch):
        return self.cp_max / (1.0 + self.a * pitch + self.b * pitch * pitch)

    def solve_pitch(self, v):
        # find pitch so that cp(pitch) * v^3 == cp_max * rated^3 (constant rated power)
        target = self.cp_max * (self.rated_speed / v) ** 3
        pitch = torch.zeros(())
        step = torch.full((), 1e3)
        it = 0
        while step.abs() > self.tol_deg and it < self.max_newton:
            denom = 1.0 + self.a * pitch + self.b * pitch * pitch
            f = self.cp_max / denom - target
            df = -self.cp_max * (self.a + 2.0 * self.b * pitch) / (denom * denom)
            step = f / df
            pitch = pitch - step
            it += 1
        return pitch

    def forward(self, wind):
        # wind [T] m/s, hub height
        if (wind > self.cut_out).all():
            # storm: whole window parked
            return torch.zeros_like(wind), torch.full_like(wind, 90.0)
        powers = []
        pitches = []
        for t in range(wind.shape[0]):
            v = wind[t]
            if v < self.cut_in or v > self.cut_out:
                power = torch.zeros(())
                pitch = torch.full((), 90.0 if float(v) > self.cut_out else 0.0)
            elif v < self.rated_speed:
                pitch = torch.zeros(())
                power = self.cp(pitch) * v ** 3
            else:
                pitch = self.solve_pitch(v)
                power = self.cp(pitch) * v ** 3
            powers.append(power / (self.cp_max * self.rated_speed ** 3))
            pitches.append(pitch)
        return torch.stack(powers), torch.stack(pitches)


def model():
    return PitchController().eval()


def _case(speeds, seed=0):
    g = torch.Generator().manual_seed(seed)
    s = torch.tensor(speeds)
    return (s + 0.05 * torch.randn(s.shape[0], generator=g),)


def example_inputs():
    return _case([5.0, 8.0, 13.0, 18.0])


def dynamic_shapes():
    t = torch.export.Dim("samples", min=2, max=600)
    return ({0: t},)


def verify_inputs():
    return [
        _case([2.0, 6.0, 10.0, 14.0, 20.0, 27.0], 1),   # every region
        _case([28.0, 30.0, 26.5], 2),                   # storm: early return
        _case([1.0, 2.5], 3),                           # below cut-in only
        _case([12.6, 16.0, 24.0, 9.0], 4),              # Newton from different starting gaps
    ]
