"""Adaptive traffic-signal controller for a single intersection.

Each cycle the phase with the highest (learned, arrival-aware) pressure gets
green for as long as its queue needs, clipped to [min_green, max_green]; while
it is green all approaches keep receiving arrivals.  The controller stops when
the intersection is clear or after max_cycles.  Returns the served phases, the
green times and the residual queues.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class PhasePressure(nn.Module):
    def __init__(self, hidden=8):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, hidden), nn.Tanh(), nn.Linear(hidden, 1))

    def forward(self, queues, arrival_rates):
        feats = torch.stack([queues / 20.0, arrival_rates * 5.0], dim=-1)
        weight = 1.0 + 0.5 * torch.tanh(self.net(feats)).squeeze(-1)
        return queues * weight


class SignalController(nn.Module):
    def __init__(self):
        super().__init__()
        self.pressure = PhasePressure()
        self.sat_flow = 0.5      # vehicles per second of green
        self.min_green = 8.0
        self.max_green = 40.0
        self.lost_time = 4.0
        self.clear_level = 6.0
        self.max_cycles = 10

    def forward(self, queues, arrival_rates):
        phases, greens = [], []
        cycles = 0
        while queues.sum() > self.clear_level:
            if cycles >= self.max_cycles:
                break
            phase = self.pressure(queues, arrival_rates).argmax()
            need = queues[phase] / self.sat_flow
            if need > self.max_green:
                green = torch.full_like(need, self.max_green)
            elif need < self.min_green:
                green = torch.full_like(need, self.min_green)
            else:
                green = need
            served = torch.minimum(queues[phase], green * self.sat_flow)
            queues = queues + arrival_rates * (green + self.lost_time)
            queues = queues - served * nn.functional.one_hot(phase, queues.shape[0]).float()
            phases.append(phase)
            greens.append(green)
            cycles += 1
        if not greens:
            return torch.zeros(0, dtype=torch.long), torch.zeros(0), queues
        return torch.stack(phases), torch.stack(greens), queues


def model():
    torch.manual_seed(0)
    return SignalController().eval()


def _make(seed, n_phases, q_max, rate_max):
    g = torch.Generator().manual_seed(seed)
    q = q_max * torch.rand(n_phases, generator=g)
    a = rate_max * torch.rand(n_phases, generator=g)
    return q, a


def example_inputs():
    return _make(0, 4, 15.0, 0.03)


def dynamic_shapes():
    phases = Dim("phases", min=2, max=8)
    return ({0: phases}, {0: phases})


def verify_inputs():
    return [
        _make(1, 4, 15.0, 0.03),   # a few cycles, clears
        _make(2, 3, 1.5, 0.01),    # intersection already clear
        (torch.tensor([9.0, 0.6, 0.4]), torch.tensor([0.002, 0.004, 0.003])),  # one cycle
        _make(3, 6, 40.0, 0.12),   # heavy demand: cycles run out
        _make(4, 2, 60.0, 0.02),   # long queue: green capped at max_green
        (torch.tensor([3.0, 2.7, 2.4, 2.1]), torch.tensor([0.01, 0.02, 0.015, 0.005])),  # short queues: min green
    ]
