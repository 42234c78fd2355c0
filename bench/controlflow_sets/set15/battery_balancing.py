"""Passive cell balancing for a battery management system (BMS microcontroller / edge board).

Inputs: cell voltages (S,) in volts and cell temperatures (S,) in deg C, S (cells in series)
dynamic. Balancing is disabled when the pack is too hot or any cell is out of range. Hot cells
are excluded from bleeding; the controller simulates bleed steps until the voltage spread is
within tolerance (or the step cap), and returns the per-cell bleed duty cycle, the predicted
voltages and the number of steps.
"""

import torch
from torch import nn


class CellBalancer(nn.Module):
    def __init__(self, tol_v: float = 0.005, gain: float = 0.3, max_steps: int = 40):
        super().__init__()
        self.tol_v, self.gain, self.max_steps = tol_v, gain, max_steps
        # learned per-cell-type self-discharge correction (tiny MLP on normalised V, T)
        self.corr = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1))

    def forward(self, volts: torch.Tensor, temps: torch.Tensor):
        s = volts.shape[0]
        if temps.max() > 55.0 or (volts < 2.5).any() or (volts > 4.25).any():
            return torch.zeros(s), volts, torch.tensor(0)
        allowed = []
        for i in range(s):
            if temps[i] > 45.0:
                allowed.append(torch.tensor(0.0))
                continue
            allowed.append(torch.tensor(1.0))
        allowed = torch.stack(allowed)
        feats = torch.stack([(volts - 3.7) / 0.5, (temps - 25.0) / 20.0], dim=1)
        v = volts + 1e-4 * torch.tanh(self.corr(feats).squeeze(-1))
        duty = torch.zeros(s)
        steps = torch.tensor(0)
        while v.max() - v.min() > self.tol_v and steps < self.max_steps:
            excess = (v - v.min()) * allowed
            bleed = self.gain * excess
            v = v - bleed
            duty = duty + bleed / (excess.max() + 1e-6)
            steps = steps + 1
        return (duty / self.max_steps).clamp(0.0, 1.0), v, steps


def model() -> nn.Module:
    torch.manual_seed(0)
    return CellBalancer().eval()


def _pack(s, spread, seed, temp=25.0):
    g = torch.Generator().manual_seed(seed)
    v = 3.7 + spread * torch.rand(s, generator=g)
    t = temp + 2.0 * torch.rand(s, generator=g)
    return v, t


def example_inputs() -> tuple:
    return _pack(12, 0.05, 1)


def dynamic_shapes():
    s = torch.export.Dim("cells", min=2, max=200)
    return ({0: s}, {0: s})


def verify_inputs() -> list:
    hot = _pack(8, 0.05, 2)
    hot[1][3] = 48.0          # one warm cell: not bled
    low = _pack(6, 0.05, 3)
    low[0][2] = 2.3           # deeply discharged cell: balancing disabled
    high = _pack(6, 0.05, 7)
    high[0][5] = 4.3          # overcharged cell: balancing disabled
    return [
        hot,
        high,
        low,
        _pack(4, 0.6, 4),                  # large spread: step cap hit
        _pack(16, 0.001, 5),               # already balanced: zero steps
        _pack(5, 0.02, 6, temp=60.0),      # pack too hot
    ]
