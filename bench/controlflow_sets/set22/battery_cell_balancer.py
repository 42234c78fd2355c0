"""BMS passive cell balancing: bleed cells above the pack minimum until the spread is small,
stopping early if a bleed resistor overheats."""
import torch
import torch.nn as nn


class BatteryCellBalancer(nn.Module):
    def __init__(self, tol=0.02, bleed=0.4, max_steps=12, temp_limit=55.0):
        super().__init__()
        self.tol = tol
        self.bleed = bleed
        self.max_steps = max_steps
        self.temp_limit = temp_limit
        # per-cell thermal model: degC rise per volt bled, learned from a tiny regressor
        self.thermal = nn.Linear(1, 1)

    def forward(self, volts, temps):
        v = volts
        t = temps
        heat_gain = 20.0 + 10.0 * torch.sigmoid(self.thermal(torch.ones(1))).squeeze()
        steps = torch.zeros((), dtype=torch.long)
        while (v.max() - v.min() > self.tol) and steps < self.max_steps:
            excess = v - v.min()
            t = t + heat_gain * self.bleed * excess
            if (t > self.temp_limit).any():
                break
            v = v - self.bleed * excess
            steps = steps + 1
        bled_energy = (volts - v).sum()
        return v, steps, bled_energy


def model():
    torch.manual_seed(0)
    return BatteryCellBalancer().eval()


def example_inputs():
    return (torch.tensor([3.71, 3.66, 3.69, 3.624, 3.70, 3.683]),
            torch.tensor([31.0, 30.5, 32.0, 29.0, 30.0, 31.5]))


def dynamic_shapes():
    cells = torch.export.Dim("cells", min=2, max=96)
    return ({0: cells}, {0: cells})


def verify_inputs():
    return [
        # already balanced: loop runs zero times
        (torch.tensor([3.801, 3.795, 3.807, 3.80]), torch.tensor([25.0, 25.5, 26.0, 24.0])),
        # a hot pack: the bleed resistor of the high cell trips the thermal limit
        (torch.tensor([3.95, 3.60, 3.62, 3.61, 3.64]), torch.tensor([50.0, 45.0, 46.0, 44.0, 47.0])),
        # large spread, cool pack
        (torch.tensor([4.10, 3.52, 3.87, 3.74, 3.93, 3.61, 3.80, 3.99]),
         torch.tensor([20.0, 21.0, 20.5, 22.0, 19.0, 20.0, 21.5, 20.0])),
    ]
