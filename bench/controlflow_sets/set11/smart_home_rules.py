"""Smart-home rule engine over sensor features, running on a home hub.

A small MLP personalises the comfort set-point from the feature vector; a rule engine submodule
then decides the actions (light, fan, heater, alarm). Security rules return early. Typical:
if/elif/else with .item(), and/or/not, early return inside a submodule forward, static flags.
Features: [motion, lux, temp_c, humidity, co2_ppm, door_open, hour_sin, hour_cos]
"""
import torch
from torch import nn


class RuleEngine(nn.Module):
    def __init__(self, night_mode: bool = False):
        super().__init__()
        self.night_mode = night_mode

    def forward(self, f, setpoint):
        motion, lux, temp, hum, co2, door = f[0, 0], f[0, 1], f[0, 2], f[0, 3], f[0, 4], f[0, 5]
        actions = torch.zeros(4)
        if door > 0.5 and not (motion > 0.5):
            # door opened with nobody inside: alarm only
            return actions + torch.tensor([0.0, 0.0, 0.0, 1.0])
        light = torch.zeros(())
        if motion.item() > 0.5 and lux.item() < 50.0:
            light = torch.ones(())
        if self.night_mode:  # static
            light = light * 0.3
        if temp > setpoint + 2.0 or co2 > 1000.0:
            fan = torch.ones(())
            heat = torch.zeros(())
        elif temp < setpoint - 2.0:
            fan = torch.zeros(())
            heat = torch.ones(())
        else:
            fan = (hum > 70.0).float()
            heat = torch.zeros(())
        return torch.stack([light, fan, heat, torch.zeros(())])


class SmartHome(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("scale", torch.tensor([1.0, 500.0, 30.0, 100.0, 2000.0, 1.0, 1.0, 1.0]))
        self.pref = nn.Sequential(nn.Linear(8, 16), nn.Tanh(), nn.Linear(16, 1), nn.Tanh())
        self.rules = RuleEngine()

    def forward(self, feats):
        setpoint = 22.0 + 1.5 * self.pref(feats / self.scale)[0, 0]
        return self.rules(feats, setpoint), setpoint


def model():
    torch.manual_seed(7)
    return SmartHome().eval()


def _f(motion, lux, temp, hum, co2, door, hour=12.0):
    a = 2 * 3.14159 * hour / 24.0
    return (torch.tensor([[motion, lux, temp, hum, co2, door, float(torch.tensor(a).sin()), float(torch.tensor(a).cos())]]),)


def example_inputs():
    return _f(1.0, 30.0, 22.0, 45.0, 600.0, 0.0)


def verify_inputs():
    return [
        _f(0.0, 300.0, 21.0, 40.0, 500.0, 1.0, 3.0),   # intruder -> alarm, early return
        _f(1.0, 300.0, 29.0, 40.0, 500.0, 1.0),        # hot, bright, someone at the door
        _f(0.0, 10.0, 15.0, 40.0, 500.0, 0.0, 22.0),   # cold -> heater
        _f(1.0, 20.0, 22.0, 80.0, 1500.0, 0.0),        # stuffy -> fan via co2
        _f(0.0, 200.0, 22.5, 80.0, 600.0, 0.0),        # humid -> fan in comfort band
    ]
