"""Spray-paint booth humidity controller: estimate humidity from the sensor
history, then simulate the PI loop until the humidity settles on the setpoint.

Constructs: 1 (saturation branch), 3 (`and` in the while condition), 4 (while
with tensor condition and loop-carried state), 7 (actuator submodule with its
own control flow).
"""
import torch
import torch.nn as nn


class Actuator(nn.Module):
    """Humidifier / dehumidifier with a limited capacity."""

    def __init__(self, limit=10.0):
        super().__init__()
        self.limit = limit

    def forward(self, cmd):
        if cmd.abs() > self.limit:
            cmd = cmd.sign() * self.limit
        return cmd


class BoothHumidityController(nn.Module):
    def __init__(self):
        super().__init__()
        self.ff = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))
        self.actuator = Actuator()
        self.register_buffer("w", torch.tensor([0.1, 0.2, 0.3, 0.4]))
        self.kp, self.ki, self.gain = 0.6, 0.05, 0.5

    def forward(self, hist, setpoint):
        # hist: [T, 3] (rel. humidity %, temperature C, airflow m/s); setpoint: [1]
        h = (hist[-4:, 0] * self.w).sum()
        bias = 0.1 * torch.tanh(self.ff(hist.mean(0) / 50.0)).squeeze()
        err = setpoint.squeeze() - h
        integ = torch.zeros(())
        u = torch.zeros(())
        steps = 0
        while err.abs() > 0.5 and steps < 40:
            integ = integ + err
            u = self.actuator(self.kp * err + self.ki * integ + bias)
            h = h + self.gain * u
            err = setpoint.squeeze() - h
            steps += 1
        return torch.stack([h, u, torch.tensor(float(steps))])


def model():
    torch.manual_seed(6)
    return BoothHumidityController().eval()


def _hist(T, rh, seed):
    g = torch.Generator().manual_seed(seed)
    base = torch.tensor([rh, 22.0, 0.4])
    return base + torch.tensor([0.0, 0.3, 0.02]) * torch.randn(T, 3, generator=g)


def example_inputs():
    return (_hist(24, 58.0, 0), torch.tensor([55.0]))


def dynamic_shapes():
    return ({0: torch.export.Dim("steps", min=4, max=96)}, None)


def verify_inputs():
    return [
        example_inputs(),                              # small error: a few iterations, no saturation
        (_hist(4, 55.0, 1), torch.tensor([55.2])),     # already at setpoint: 0 iterations
        (_hist(96, 30.0, 2), torch.tensor([60.0])),    # big error: saturates (positive), many iterations
        (_hist(40, 80.0, 3), torch.tensor([50.0])),    # big error: saturates (negative)
        (_hist(10, 50.0, 4), torch.tensor([50.9])),    # two iterations, no saturation
    ]
