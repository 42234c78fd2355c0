"""Coffee roaster controller: rolls a learned bean-temperature model forward until the bean reaches
the drop temperature or the time cap; returns the simulated curve (length depends on the data)."""
import torch
from torch import nn

MAX_STEPS = 60


class RoastSim(nn.Module):
    def __init__(self):
        super().__init__()
        self.dyn = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 1))

    def forward(self, state, burner, drop_temp):
        # state: (2,) [bean temp (x100 C), rate of rise]; burner: (1,); drop_temp: (1,) (x100 C)
        temp = state[0:1]
        ror = state[1:2]
        curve = [temp]
        step = torch.zeros((), dtype=torch.int64)
        while (temp < drop_temp).all() and (step < MAX_STEPS):
            inp = torch.cat([temp, ror, burner])
            d = 0.02 + 0.01 * torch.tanh(self.dyn(inp)) + 0.05 * burner
            if not (ror > 0.2).all():
                ror = ror + 0.5 * d
            else:
                ror = 0.9 * ror + 0.1 * d
            temp = temp + ror * 0.1
            curve.append(temp)
            step = step + 1
        return torch.cat(curve), step


def model():
    torch.manual_seed(0)
    return RoastSim().eval()


def example_inputs():
    return (torch.tensor([1.0, 0.1]), torch.tensor([0.5]), torch.tensor([1.2]))


def verify_inputs():
    return [
        (torch.tensor([2.1, 0.1]), torch.tensor([0.5]), torch.tensor([2.0])),   # already past drop: 0 steps
        (torch.tensor([0.2, 0.0]), torch.tensor([0.0]), torch.tensor([2.2])),   # weak burner: hits cap
        (torch.tensor([1.5, 0.3]), torch.tensor([1.0]), torch.tensor([1.9])),
    ]
