"""Hydroponic reservoir controller: pH correction and EC top-up dosing.

Kind T. Constructs: 1, 2, 4, 7.
"""
import torch
import torch.nn as nn
from torch.export import Dim


def ph_correction(ph):
    # ml of acid (+) / base (-) per 100 L
    if ph > 6.5:
        dose = (ph - 6.0) * 4.0
    elif ph < 5.5:
        dose = (ph - 6.0) * 3.0
    else:
        dose = torch.zeros_like(ph)
    return dose


class ECDoser(nn.Module):
    def __init__(self, step=0.15, target=1.8, max_doses=8):
        super().__init__()
        self.step = step
        self.target = target
        self.max_doses = max_doses

    def forward(self, ec):
        n = torch.zeros(())
        while ec < self.target and n < self.max_doses:
            ec = ec + self.step
            n = n + 1
        return ec, n


class NutrientDoser(nn.Module):
    def __init__(self):
        super().__init__()
        self.trend = nn.GRU(4, 8, batch_first=True)
        self.head = nn.Linear(8, 3)
        self.ec_doser = ECDoser()

    def forward(self, readings):
        # readings: (T, 4) = ec mS/cm, pH, water temp C, tank level fraction
        level = readings[:, 3]
        if level.min() < 0.2:
            # pump would run dry: refill alarm only
            return torch.tensor([0.0, 0.0, 1.0]), torch.zeros(3)
        ec = readings[-3:, 0].mean()
        ph = readings[-3:, 1].mean()
        acid = ph_correction(ph)
        ec_final, n_doses = self.ec_doser(ec)
        _, h = self.trend(readings.unsqueeze(0))
        adj = self.head(h[0, 0])
        return torch.stack([acid, n_doses, torch.zeros(())]), adj + ec_final


def model():
    torch.manual_seed(103)
    return NutrientDoser().eval()


def _tank(T, ec, ph, level=0.8):
    t = torch.arange(T, dtype=torch.float32)
    return torch.stack([
        torch.full((T,), ec) + 0.01 * torch.sin(t),
        torch.full((T,), ph) + 0.02 * torch.cos(t),
        torch.full((T,), 21.0),
        torch.full((T,), level),
    ], dim=1)


def example_inputs():
    return (_tank(24, 1.23, 6.9),)


def dynamic_shapes():
    return ({0: Dim("samples", min=4, max=128)},)


def verify_inputs():
    return [
        example_inputs(),            # acid branch, EC loop runs several times
        (_tank(4, 1.73, 5.0),),      # base branch, EC loop runs once
        (_tank(128, 2.1, 6.0),),     # pH ok (else), EC loop runs zero times
        (_tank(10, 1.5, 6.0, 0.1),), # low level -> early return
        (_tank(16, 0.1, 6.0),),      # EC loop stopped by max_doses
    ]
