"""Shared e-scooter firmware-side speed governor.

A small learned model turns the telemetry of each tick into the rider's
demanded speed; a hand-written governor then applies the operator's rules:
no-ride zones, slow zones, steep descents, motor temperature derating and an
acceleration (ramp) limit.  The region is a static configuration flag.
"""
import torch
import torch.nn as nn

NORMAL, SLOW_ZONE, NO_RIDE = 0, 1, 2


class SpeedGovernor(nn.Module):
    def __init__(self, region="EU"):
        super().__init__()
        self.region = region
        self.demand_net = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 1))
        self.slow_zone_kmh = 12.0
        self.max_step_kmh = 3.0
        if region == "EU":
            self.max_kmh = 25.0
        else:
            self.max_kmh = 32.0

    def thermal_factor(self, motor_temp):
        # derate the motor when it runs hot
        if motor_temp > 80.0:
            return 0.5
        elif motor_temp > 60.0:
            return 0.8
        return 1.0

    def forward(self, telemetry, zones):
        # telemetry: [T, 3] = speed km/h, road slope %, motor temperature C
        feats = telemetry / torch.tensor([25.0, 10.0, 50.0])
        demand = self.max_kmh * torch.sigmoid(self.demand_net(feats)).squeeze(-1)
        prev_cap = telemetry[0, 0]
        caps = []
        for t in range(telemetry.shape[0]):
            speed, slope, temp = telemetry[t, 0], telemetry[t, 1], telemetry[t, 2]
            cap = demand[t] * self.thermal_factor(temp)
            if zones[t] == NO_RIDE:
                cap = torch.zeros_like(cap)
            elif zones[t] == SLOW_ZONE or (slope < -8.0 and speed > 15.0):
                cap = torch.clamp(cap, max=self.slow_zone_kmh)
            if self.region == "EU":  # static-config
                # EU rules: no throttle assistance above 25 km/h
                cap = torch.clamp(cap, max=25.0)
            if cap > prev_cap + self.max_step_kmh:
                cap = prev_cap + self.max_step_kmh
            caps.append(cap)
            prev_cap = cap
        caps = torch.stack(caps)
        limited = (caps < demand - 0.5).float().mean()
        return caps, limited


def model():
    torch.manual_seed(101)
    return SpeedGovernor(region="EU").eval()


def _telemetry(speeds, slopes, temps):
    return torch.tensor([speeds, slopes, temps], dtype=torch.float32).T.contiguous()


def example_inputs():
    tel = _telemetry([2.0, 6.0, 10.0, 14.0, 18.0, 20.0, 21.0, 21.0],
                     [0.0, 1.0, 2.0, -3.0, -10.0, -12.0, 0.0, 1.0],
                     [35.0, 40.0, 45.0, 55.0, 65.0, 70.0, 75.0, 85.0])
    zones = torch.tensor([0, 0, 0, 1, 0, 0, 0, 2])
    return tel, zones


def dynamic_shapes():
    t = torch.export.Dim("ticks", min=2, max=128)
    return ({0: t}, {0: t})


def verify_inputs():
    g = torch.Generator().manual_seed(7)
    n = 40
    speeds = (torch.rand(n, generator=g) * 24).tolist()
    slopes = (torch.rand(n, generator=g) * 24 - 12).tolist()
    temps = (torch.rand(n, generator=g) * 70 + 30).tolist()
    zones = (torch.rand(n, generator=g) * 3).long()
    return [
        # example: ramp-up from standstill (ramp limit hit), slow zone, steep descent
        # at speed, every temperature band, and a no-ride zone at the end
        example_inputs(),
        # two ticks, cool motor, normal zone, riding at speed: ramp limit not hit
        (_telemetry([20.0, 20.0], [0.0, 0.0], [30.0, 30.0]), torch.tensor([0, 0])),
        # steep descent but slow (and-clause false), hot motor, no-ride start
        (_telemetry([5.0, 6.0, 4.0], [-10.0, -11.0, -9.0], [90.0, 90.0, 62.0]), torch.tensor([2, 0, 0])),
        # long random ride: all zones and temperature bands mixed
        (_telemetry(speeds, slopes, temps), zones),
    ]
