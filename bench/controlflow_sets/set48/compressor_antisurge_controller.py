"""Centrifugal compressor anti-surge controller.

Each sample: surge margin from a speed-dependent surge line (submodule, with a small learned
correction). Inside the control margin a PI loop opens the recycle valve; below the trip margin the
valve steps fully open and is latched open for a number of samples before ramping closed again.
"""
import torch
import torch.nn as nn


class SurgeLine(nn.Module):
    def __init__(self):
        super().__init__()
        self.residual = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1))

    def forward(self, pressure_ratio, speed):
        # surge flow (normalised) as a function of pressure ratio, two curve fits by speed band
        if speed > 0.9:
            base = 0.18 + 0.12 * (pressure_ratio - 1.0)
        else:
            base = 0.15 + 0.14 * (pressure_ratio - 1.0)
        corr = 0.005 * torch.tanh(self.residual(torch.stack([pressure_ratio, speed]))).squeeze()
        return base + corr


class AntiSurgeController(nn.Module):
    def __init__(self, control_margin=0.10, trip_margin=0.03, latch_samples=3, kp=2.0, ki=0.3):
        super().__init__()
        self.surge_line = SurgeLine()
        self.control_margin = control_margin
        self.trip_margin = trip_margin
        self.latch_samples = latch_samples
        self.kp = kp
        self.ki = ki

    def forward(self, history, valve0):
        # history: (T, 3) = flow, pressure ratio, speed (normalised); valve0: (1,) initial opening 0..1
        valve = valve0.reshape(())
        integral = torch.zeros(())
        hold = 0
        valves, margins = [], []
        for t in range(history.shape[0]):
            flow, pr, speed = history[t]
            surge_flow = self.surge_line(pr, speed)
            margin = (flow - surge_flow) / surge_flow
            if hold > 0 or margin < self.trip_margin:
                if margin < self.trip_margin:
                    hold = self.latch_samples
                valve = torch.ones(())
                integral = torch.zeros(())
                hold -= 1
            elif margin < self.control_margin:
                err = self.control_margin - margin
                integral = integral + err
                valve = torch.clamp(self.kp * err + self.ki * integral, 0.0, 1.0)
            else:
                valve = torch.clamp(valve - 0.05, min=0.0)  # slow close when safe
            valves.append(valve)
            margins.append(margin)
        return torch.stack(valves), torch.stack(margins)


def model():
    torch.manual_seed(48006)
    return AntiSurgeController().eval()


def _trace(flows, pr=1.5, speed=0.95):
    f = torch.tensor(flows)
    return torch.stack([f, torch.full_like(f, pr), torch.full_like(f, speed)], dim=1)


def example_inputs():
    # surge flow ~0.24 at PR 1.5 / high speed: margins ~ +0.46, +0.04, -0.08 (trip), latched, recover
    return _trace([0.35, 0.35, 0.25, 0.22, 0.30, 0.35, 0.35, 0.35, 0.35]), torch.tensor([0.0])


def dynamic_shapes():
    return ({0: torch.export.Dim("samples", min=2, max=256)}, None)


def verify_inputs():
    return [
        example_inputs(),  # safe close, PI band, trip + latch (hold>0 path), release
        (_trace([0.30, 0.22, 0.31], pr=1.4, speed=0.7), torch.tensor([0.5])),  # low-speed curve; safe then PI band
        (_trace([0.20, 0.20], pr=2.0, speed=0.8), torch.tensor([0.2])),        # immediate trip at low speed, min length
    ]
