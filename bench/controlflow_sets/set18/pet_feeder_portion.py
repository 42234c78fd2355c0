"""Smart pet feeder: portion size from the pet's weight trend, activity and what was left in the bowl;
skips feeding if the bowl is still mostly full."""
import torch
from torch import nn


class PortionModel(nn.Module):
    def __init__(self, diet_mode=False, max_grams=120.0):
        super().__init__()
        self.diet_mode = diet_mode
        self.max_grams = max_grams
        self.mlp = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, weights, activity, leftover):
        # weights: (D,) daily kg, D dynamic; activity: (D,) steps/1000; leftover: (1,) grams
        trend = weights[-1] - weights[0]
        feats = torch.stack([weights.mean(), trend, activity.mean(), leftover[0] / 100.0])
        base = 40.0 + 20.0 * torch.sigmoid(self.mlp(feats)).squeeze() + 10.0 * weights[-1]
        factor = torch.ones(())
        if trend > 0.3:
            factor = torch.tensor(0.9)                 # gaining: trim
        portion = base * factor
        portion = portion * 1.1 if activity.mean() > 5.0 else portion
        if self.diet_mode:  # static
            portion = portion * 0.8
        if leftover.item() > 0.5 * portion.item():
            return torch.zeros(()), factor
        portion = (portion - leftover[0]).clamp(0.0, self.max_grams)
        return portion, factor


def model():
    torch.manual_seed(0)
    return PortionModel().eval()


def example_inputs():
    return (torch.linspace(4.0, 4.1, 7), torch.full((7,), 3.0), torch.tensor([5.0]))


def dynamic_shapes():
    days = torch.export.Dim("days", min=2, max=90)
    return ({0: days}, {0: days}, None)


def verify_inputs():
    return [(torch.linspace(4.0, 4.8, 14), torch.full((14,), 8.0), torch.tensor([0.0])),
            (torch.linspace(5.0, 5.0, 3), torch.full((3,), 2.0), torch.tensor([80.0]))]
