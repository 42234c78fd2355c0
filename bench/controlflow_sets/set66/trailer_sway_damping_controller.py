"""Trailer sway mitigation (ESP add-on for towing vehicles).

Runs over a buffered window of hitch articulation rate, vehicle speed and driver brake
pedal. An envelope detector tracks the sway amplitude; above the trigger the controller
ramps up symmetric brake pressure, below the release level it ramps back down. Below the
activation speed the function is inactive; when the driver brakes hard the controller
hands over and stops. A small network splits the brake demand between the axles.

Kind: T.  Constructs: 1, 3, 5, 6.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim


class TrailerSwayController(nn.Module):
    def __init__(self, min_speed=60.0, trigger=8.0, release=3.0, ramp=5.0, max_brake=40.0,
                 decay=0.9):
        super().__init__()
        self.min_speed = min_speed
        self.trigger = trigger
        self.release = release
        self.ramp = ramp
        self.max_brake = max_brake
        self.decay = decay
        self.split = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 2))

    def forward(self, articulation_rate, speed, driver_brake):
        # all (T,): deg/s, km/h, pedal position 0..1
        n = articulation_rate.shape[0]
        envelope = torch.zeros(())
        brake = torch.zeros(())
        commands = []
        for t in range(n):
            envelope = torch.maximum(articulation_rate[t].abs(), self.decay * envelope)
            if driver_brake[t] > 0.8:
                # driver emergency braking has priority: hand over
                break
            if speed[t] < self.min_speed:
                brake = torch.zeros(())
                commands.append(brake)
                continue
            if envelope > self.trigger and driver_brake[t] < 0.1:
                brake = torch.clamp(brake + self.ramp, max=self.max_brake)
            elif envelope < self.release:
                brake = torch.clamp(brake - 2 * self.ramp, min=0.0)
            commands.append(brake)
        if len(commands) > 0:
            cmd = torch.stack(commands)
        else:
            cmd = torch.zeros(0)
        cmd = F.pad(cmd, (0, n - cmd.shape[0]))
        feats = torch.stack([cmd / self.max_brake, speed / 100.0], dim=-1)
        axle_share = torch.softmax(self.split(feats), dim=-1)
        return cmd.unsqueeze(-1) * axle_share


def model():
    torch.manual_seed(3)
    return TrailerSwayController().eval()


def _sway(n, amp, grow=0.0, speed=90.0, brake_at=None):
    t = torch.arange(n, dtype=torch.float32)
    rate = (amp + grow * t) * torch.sin(2 * torch.pi * t / 10.0 + 0.3)
    spd = torch.full((n,), speed)
    pedal = torch.zeros(n)
    if brake_at is not None:
        pedal[brake_at:] = 0.95
    return rate, spd, pedal


def example_inputs():
    return _sway(60, 2.0, grow=0.4)


def dynamic_shapes():
    t = Dim("samples", min=2, max=400)
    return ({0: t}, {0: t}, {0: t})


def verify_inputs():
    rate, spd, pedal = _sway(50, 14.0)
    spd[:10] = 40.0          # first part below activation speed
    rate[30:] = 0.5          # sway dies out -> release
    pedal[20:22] = 0.3       # light braking: trigger condition's `and` is false
    return [
        # growing sway: trigger branch, ramping, no early exit
        example_inputs(),
        # low speed (continue), then sway (trigger, `and` false while pedal 0.3), then release
        (rate, spd, pedal),
        # driver brakes hard at sample 15: break after some commands
        _sway(30, 12.0, brake_at=15),
        # driver already braking at t=0: break immediately, empty command list
        _sway(8, 12.0, brake_at=0),
        # small steady sway between release and trigger: neither branch
        _sway(20, 5.0),
    ]
