"""Greenhouse climate controller running on a PLC-class edge board.

A setpoint net adapts temperature/humidity targets to the hour's light level; a controller
submodule (PI heating with anti-windup, venting, dehumidification interlocked with the door
sensor) runs once per sensor reading.
"""

import torch
from torch import nn


class ClimateController(nn.Module):
    def __init__(self, band: float = 1.0, kp: float = 0.3, ki: float = 0.05, rh_max: float = 85.0):
        super().__init__()
        self.band, self.kp, self.ki, self.rh_max = band, kp, ki, rh_max

    def forward(self, reading: torch.Tensor, setpoint: torch.Tensor, integ: torch.Tensor):
        temp, rh, door = reading[0], reading[1], reading[3]
        err = setpoint[0] - temp
        heat = torch.zeros(())
        vent = torch.zeros(())
        if err > self.band:
            integ = torch.clamp(integ + err, max=20.0)  # anti-windup
            heat = torch.clamp(self.kp * err + self.ki * integ, 0.0, 1.0)
        elif err < -self.band:
            vent = torch.clamp(-0.25 * err, 0.0, 1.0)
            integ = integ * 0.5
        dehum = torch.zeros(())
        if not door > 0.5 and rh > min(self.rh_max, float(setpoint[1]) + 10.0):
            dehum = torch.ones(())
        return torch.stack([heat, vent, dehum]), integ


class Greenhouse(nn.Module):
    def __init__(self, log_debug: bool = False):
        super().__init__()
        self.setpoint_net = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 2))
        self.ctrl = ClimateController()
        self.log_debug = log_debug

    def forward(self, sensors: torch.Tensor):
        # sensors: (T, 4) [temp C, RH %, light klux, door open 0/1]
        base = torch.tensor([22.0, 70.0])
        integ = torch.zeros(())
        actions = []
        for t in range(sensors.shape[0]):
            light = sensors[t, 2:3]
            sp = base + torch.tensor([2.0, 5.0]) * torch.tanh(self.setpoint_net(torch.cat([light / 50.0, light / 100.0])))
            act, integ = self.ctrl(sensors[t], sp, integ)
            if self.log_debug:  # static
                print("t", t, "act", act.tolist())
            actions.append(act)
        return torch.stack(actions), integ


def model() -> nn.Module:
    torch.manual_seed(0)
    return Greenhouse().eval()


def example_inputs() -> tuple:
    return (torch.tensor([
        [15.0, 80.0, 5.0, 0.0],   # cold morning: heat
        [16.5, 92.0, 10.0, 0.0],  # humid, door shut: dehumidify
        [22.3, 70.0, 40.0, 0.0],  # in band
        [29.0, 60.0, 80.0, 1.0],  # hot noon: vent
        [27.0, 95.0, 60.0, 1.0],  # humid but door open: no dehumidifier
        [19.0, 75.0, 20.0, 0.0],
    ]),)


def dynamic_shapes():
    return ({0: torch.export.Dim("readings", min=2, max=144)},)


def verify_inputs() -> list:
    g = torch.Generator().manual_seed(1)
    night = torch.stack([12.0 + torch.rand(48, generator=g), 75.0 + 3 * torch.rand(48, generator=g),
                         torch.zeros(48), torch.zeros(48)], 1)
    return [(night,), (torch.tensor([[23.0, 60.0, 30.0, 0.0], [22.5, 65.0, 35.0, 1.0]]),)]
