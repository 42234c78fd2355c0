"""Building monitoring: snow load alarm for a flat-ish warehouse roof.

Ultrasonic depth sensors and snow-temperature probes give one reading per roof
zone. Snow density rises for wet, near-zero snow (with a small learned
correction), which turns depth into load; the roof-slope factor from the snow
code reduces it on steep roofs. The representative load is compared with the
design load against the alarm ladder, and drifts (one zone far above the rest)
escalate the alarm because they concentrate the load on a few purlins.
"""
import torch
import torch.nn as nn

OK, WATCH, CLEAR_ROOF, EVACUATE = 0, 1, 2, 3


class DensityModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1))

    def forward(self, depth_cm, temp_c):
        base = 150.0 + 25.0 * (temp_c + 10.0).clamp(0.0, 12.0)  # kg/m^3
        feats = torch.stack([depth_cm / 100.0, temp_c / 10.0], dim=-1)
        return base + 20.0 * torch.tanh(self.mlp(feats)).squeeze(-1)


class SnowRoofAlarm(nn.Module):
    def __init__(self):
        super().__init__()
        self.density = DensityModel()
        self.alarm_levels = [(EVACUATE, 0.9), (CLEAR_ROOF, 0.7), (WATCH, 0.5)]
        self.drift_ratio = 2.0

    def _slope_factor(self, pitch_deg):
        if pitch_deg <= 30.0:
            return torch.ones(())
        elif pitch_deg <= 70.0:
            return (70.0 - pitch_deg) / 40.0
        else:
            return torch.zeros(())

    def forward(self, depth_cm, snow_temp_c, roof):
        pitch, design_kpa = roof[0], roof[1]
        rho = self.density(depth_cm, snow_temp_c)
        loads = depth_cm / 100.0 * rho * 9.81 / 1000.0  # kPa
        loads = loads * self._slope_factor(pitch)

        if depth_cm.shape[0] < 4:
            representative = loads.max()  # too few sensors for a percentile
        else:
            k = max(1, int(0.9 * depth_cm.shape[0]))
            representative = loads.kthvalue(k).values
        ratio = representative / design_kpa

        alarm = OK
        for code, fraction in self.alarm_levels:
            if ratio >= fraction:
                alarm = code
                break

        median = loads.median()
        drifting = loads.max() > self.drift_ratio * median and loads.max() > 0.5 * design_kpa
        if drifting and alarm < CLEAR_ROOF:
            alarm = CLEAR_ROOF
        return torch.tensor(alarm), representative, ratio, loads


def model():
    torch.manual_seed(3)
    return SnowRoofAlarm().eval()


def _zones(depths, temp, pitch=5.0, design=3.0, seed=0):
    g = torch.Generator().manual_seed(seed)
    depth = torch.tensor(depths) + 0.5 * torch.rand(len(depths), generator=g)
    temps = temp + 0.3 * torch.randn(len(depths), generator=g)
    return depth, temps, torch.tensor([pitch, design])


def example_inputs():
    return _zones([40.0, 42.0, 38.0, 45.0, 41.0, 39.0, 44.0, 40.0], -6.0, seed=1)


def dynamic_shapes():
    s = torch.export.Dim("sensors", min=2, max=64)
    return ({0: s}, {0: s}, None)


def verify_inputs():
    return [
        example_inputs(),                                            # ~1 kPa of cold snow: no level reached -> ok
        _zones([55.0 + 0.2 * i for i in range(64)], -6.0, seed=2),   # max sensors, 90th percentile -> watch
        _zones([85.0, 90.0], -1.0, seed=3),                          # min sensors (max load), wet snow -> evacuate
        _zones([65.0] * 10, -2.0, seed=4),                           # wet, even cover -> clear roof
        _zones([20.0] * 9 + [75.0], -2.0, seed=5),                   # one drifted zone -> escalated to clear roof
        _zones([20.0] * 9 + [75.0], -2.0, pitch=80.0, seed=6),       # steep roof sheds snow: slope factor 0 -> ok
        _zones([70.0] * 6, -2.0, pitch=50.0, seed=7),                # mid pitch halves the load -> ok
        _zones([50.0] * 5 + [80.0] * 5, -4.0, seed=8),               # uneven but no drift (max < 2x median) -> clear roof
        _zones([30.0] * 5 + [80.0] * 5, -4.0, seed=9),               # drift, but already at clear roof: no change
    ]
