"""Burn resuscitation planner (Parkland formula) for a batch of patients.

Per patient: total 24h crystalloid volume (4 mL/kg/%TBSA adult, 3 for children), +20% for
inhalation injury or very large burns, infusion rate depending on time since burn, and a
urine-output titration. A small learned model nudges the plan by at most +-10%.
"""
import torch
import torch.nn as nn


def parkland_volume(weight, tbsa, pediatric):
    coeff = 3.0 if pediatric else 4.0
    return coeff * weight * tbsa


def maintenance_rate(weight):
    # Holliday-Segar 4-2-1 rule, mL/h (vectorised)
    first = torch.clamp(weight, max=10.0) * 4.0
    second = torch.clamp(weight - 10.0, min=0.0, max=10.0) * 2.0
    rest = torch.clamp(weight - 20.0, min=0.0) * 1.0
    return first + second + rest


class BurnResuscitation(nn.Module):
    def __init__(self, use_ml_adjust=True):
        super().__init__()
        self.use_ml_adjust = use_ml_adjust
        self.adjust = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 2))
        self.register_buffer("scale", torch.tensor([100.0, 100.0, 80.0, 24.0, 1.0, 2.0]))

    def forward(self, x):
        weight, tbsa, age, hours, inhal, uop = x.unbind(1)
        if bool((tbsa < 15).all()):
            # minor burns only: maintenance fluids, no resuscitation volume
            return torch.stack([torch.zeros_like(weight), maintenance_rate(weight)], dim=1)

        plans = []
        for i in range(x.shape[0]):
            pediatric = age[i] < 14
            total = parkland_volume(weight[i], tbsa[i], pediatric)
            if inhal[i] > 0.5 or tbsa[i] > 40:
                total = total * 1.2
            if hours[i] >= 8:
                rate = (total / 2) / 16
            else:
                rate = (total / 2) / (8 - hours[i])
            target = 1.0 if pediatric else 0.5
            if uop[i] < target:
                rate = rate * 1.25
            elif uop[i] > 2 * target:
                rate = rate * 0.8
            plans.append(torch.stack([total, rate]))
        out = torch.stack(plans)
        if self.use_ml_adjust:
            out = out * (1.0 + 0.1 * torch.tanh(self.adjust(x / self.scale)))
        return out


def model():
    torch.manual_seed(48002)
    return BurnResuscitation().eval()


def example_inputs():
    # weight kg, %TBSA, age y, hours since burn, inhalation injury, urine mL/kg/h
    return (torch.tensor([
        [80.0, 30.0, 45.0, 2.0, 0.0, 0.3],   # adult, low urine -> rate up
        [25.0, 25.0, 8.0, 10.0, 0.0, 2.5],   # child, past 8 h, high urine -> rate down
        [70.0, 50.0, 30.0, 4.0, 0.0, 0.7],   # >40% TBSA -> +20%, urine on target
        [90.0, 20.0, 60.0, 1.0, 1.0, 0.4],   # inhalation injury -> +20%, low urine
    ]),)


def dynamic_shapes():
    return ({0: torch.export.Dim("patients", min=2, max=64)},)


def verify_inputs():
    return [
        example_inputs(),  # all per-patient branches: child/adult, inhal/tbsa>40/neither, hours<8/>=8, uop low/high/ok
        (torch.tensor([[60.0, 10.0, 30.0, 1.0, 0.0, 1.0],
                       [15.0, 5.0, 3.0, 2.0, 0.0, 1.5],
                       [8.0, 12.0, 1.0, 3.0, 0.0, 2.0]]),),  # all minor burns -> early return
        (torch.tensor([[12.0, 35.0, 2.0, 9.0, 1.0, 0.6],
                       [75.0, 18.0, 40.0, 0.5, 0.0, 1.6]]),),  # child low urine; adult high urine, hours<8
    ]
