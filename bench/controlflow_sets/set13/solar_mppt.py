"""Perturb-and-observe maximum power point tracker for a PV string inverter.

Single-diode PV model (with a learned soiling/derating correction) gives the power at a
voltage; P&O steps the voltage, reverses and halves the step when power drops, and stops when
the step is below resolution or after an iteration cap. Night (low irradiance) short-circuits.
"""

import torch
from torch import nn


class PVModel(nn.Module):
    def __init__(self, n_series: int = 60):
        super().__init__()
        self.derate = nn.Linear(2, 1)
        self.vt = 1.3 * 0.0257 * n_series
        self.i0 = 1e-9

    def forward(self, v: torch.Tensor, env: torch.Tensor) -> torch.Tensor:
        g, temp = env[0], env[1]
        isc = 9.0 * g * (1 + 0.0005 * (temp - 25.0))
        k = 0.95 + 0.05 * torch.sigmoid(self.derate(env / torch.tensor([1.0, 50.0]))).squeeze(-1)
        i = isc * k - self.i0 * (torch.exp(v / self.vt) - 1.0)
        return v * torch.clamp(i, min=0.0)


class MPPT(nn.Module):
    def __init__(self, max_iter: int = 12, min_step: float = 0.4, min_irr: float = 0.05):
        super().__init__()
        self.pv = PVModel()
        self.max_iter = max_iter
        self.min_step = min_step
        self.min_irr = min_irr

    def forward(self, env: torch.Tensor, v0: torch.Tensor):
        # env: (2,) [irradiance kW/m2, cell temperature C]; v0: () start voltage
        if env[0] < self.min_irr:
            return torch.zeros(()), torch.zeros(()), torch.tensor(0)
        v = v0
        step = torch.tensor(2.0)
        direction = torch.tensor(1.0)
        p = self.pv(v, env)
        it = 0
        while it < self.max_iter:
            v_new = v + direction * step
            p_new = self.pv(v_new, env)
            if p_new > p:
                v, p = v_new, p_new
            else:
                direction = -direction
                step = step * 0.5
            if step < self.min_step:
                break
            it += 1
        return v, p, torch.tensor(it)


def model() -> nn.Module:
    torch.manual_seed(0)
    return MPPT().eval()


def example_inputs() -> tuple:
    return (torch.tensor([0.8, 35.0]), torch.tensor(20.0))


def verify_inputs() -> list:
    return [
        (torch.tensor([0.01, 10.0]), torch.tensor(20.0)),   # night
        (torch.tensor([1.0, 25.0]), torch.tensor(5.0)),     # far from the MPP: hits the cap
        (torch.tensor([0.3, 15.0]), torch.tensor(33.0)),
    ]
