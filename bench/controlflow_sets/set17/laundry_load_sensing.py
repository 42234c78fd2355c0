"""Washing machine load sensing: spin-up torque ramp, bisection on load estimate until tolerance (typical)."""
import torch
from torch import nn


class LoadSensor(nn.Module):
    def __init__(self, feat=10, hidden=16):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(feat, hidden), nn.Tanh(), nn.Linear(hidden, 1))
        self.tol = 0.05

    def inertia(self, kg: torch.Tensor) -> torch.Tensor:
        return 0.3 * kg + 0.02 * kg * kg

    def forward(self, torque: torch.Tensor, target: torch.Tensor):
        # torque: [T, feat] samples; target: scalar measured inertia
        corr = self.mlp(torque).mean() * 0.01
        lo = torch.zeros(())
        hi = target * 20.0 + 0.5  # search bracket scales with the measurement
        steps = torch.zeros((), dtype=torch.int64)
        while (hi - lo) > self.tol:
            mid = (lo + hi) / 2
            if self.inertia(mid) < target:
                lo = mid
            else:
                hi = mid
            steps = steps + 1
        kg = (lo + hi) / 2 + corr
        if kg < 1.0:
            program = torch.tensor(0)
        elif kg > 8.0:
            program = torch.tensor(2)
        else:
            program = torch.tensor(1)
        return kg, program, steps


class LoadSensorTop(nn.Module):
    def __init__(self):
        super().__init__()
        self.sensor = LoadSensor()
        self.half_load_mode = False

    def forward(self, torque, target):
        if self.half_load_mode:  # static
            target = target * 0.5
        return self.sensor(torque, target)


def model():
    torch.manual_seed(13)
    return LoadSensorTop().eval()


def example_inputs():
    return (torch.randn(20, 10), torch.tensor(1.37))


def dynamic_shapes():
    return ({0: torch.export.Dim("samples", min=2, max=500)}, None)


def verify_inputs():
    return [(torch.randn(50, 10), torch.tensor(0.11)), (torch.randn(8, 10), torch.tensor(4.33))]
