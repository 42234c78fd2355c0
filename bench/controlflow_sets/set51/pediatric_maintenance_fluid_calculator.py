"""Pediatric ward IV maintenance-fluid calculator (Holliday-Segar 4-2-1 rule).

A small risk net estimates dehydration from vitals; rates are then adjusted
with ward-level rules.
"""
import torch
import torch.nn as nn


class PediatricFluidCalculator(nn.Module):
    def __init__(self, use_dehydration_adjust=True, max_adult_rate=100.0):
        super().__init__()
        self.use_dehydration_adjust = use_dehydration_adjust
        self.max_adult_rate = max_adult_rate
        # vitals: heart rate, resp rate, temp, cap refill, urine output, mucosa score
        self.dehydration_net = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 1))

    def holliday_segar(self, weight_kg):
        first = weight_kg.clamp(max=10.0) * 4.0
        second = (weight_kg - 10.0).clamp(min=0.0, max=10.0) * 2.0
        rest = (weight_kg - 20.0).clamp(min=0.0) * 1.0
        return first + second + rest  # mL/hr

    def forward(self, weight_kg, vitals):
        if weight_kg.min() <= 0:
            # bad scale reading somewhere on the ward: refuse to dose anybody
            zero = torch.zeros_like(weight_kg)
            return zero, zero.sum()

        rate = self.holliday_segar(weight_kg)
        if self.use_dehydration_adjust:
            severity = torch.sigmoid(self.dehydration_net(vitals)).squeeze(-1)
            # replace 10% of the estimated deficit over 24 h
            rate = rate + severity * 0.1 * weight_kg * 1000.0 / 24.0 * 0.1

        heaviest = weight_kg.max()
        if heaviest > 70:
            # adolescent of adult size: adult ceiling applies
            rate = rate.clamp(max=self.max_adult_rate)
        elif heaviest < 5:
            # neonatal unit: fluid restrict to 80%
            rate = rate * 0.8
        else:
            rate = rate.round()

        if weight_kg.shape[0] > 24:
            # big ward: pumps are shared, round to 5 mL/hr steps
            rate = torch.round(rate / 5.0) * 5.0
        total = rate.sum()
        return rate, total


def model():
    torch.manual_seed(5101)
    return PediatricFluidCalculator().eval()


def _vitals(n, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(n, 6, generator=g)


def example_inputs():
    w = torch.linspace(3.0, 45.0, 12)
    return (w, _vitals(12, 1))


def dynamic_shapes():
    n = torch.export.Dim("patients", min=2, max=64)
    return ({0: n}, {0: n})


def verify_inputs():
    return [
        # example: mixed ward, 5 < heaviest <= 70 -> round branch, small ward
        example_inputs(),
        # min size, one weight is zero -> early return of zeros
        (torch.tensor([0.0, 12.0]), _vitals(2, 2)),
        # neonatal unit only (heaviest < 5) -> 80% branch, small ward
        (torch.tensor([2.1, 3.4, 4.0]), _vitals(3, 3)),
        # max size ward with an adult-size teen (>70 kg) -> cap branch, big ward rounding
        (torch.linspace(4.0, 82.0, 64), _vitals(64, 4)),
    ]
