"""Nordic ski wax recommender from trackside snow temperature / humidity probes.

Kind T. Constructs: 1, 2, 3, 9.
"""
import torch
import torch.nn as nn
from torch.export import Dim

WAXES = ["yellow", "red", "violet", "blue", "green"]


class SkiWax(nn.Module):
    def __init__(self, racing=True):
        super().__init__()
        self.racing = racing
        # one small expert per wax family: predicts glide/kick quality
        self.experts = nn.ModuleList([nn.Linear(3, 2) for _ in WAXES])

    def forward(self, snow_temp, humidity):
        # snow_temp: (N,) degC, humidity: (N,) 0..1, N probes along the track
        t = snow_temp.mean()
        rh = humidity.mean()
        if t > -1.0:
            idx = 0
        elif t > -4.0:
            idx = 1
        elif t > -8.0:
            idx = 2
        elif t > -14.0:
            idx = 3
        else:
            idx = 4
        topcoat = torch.zeros(())
        if rh > 0.8 and t > -4.0:
            topcoat = torch.ones(())
        x = torch.stack([t / 10.0, rh, snow_temp.std() if snow_temp.shape[0] > 1 else t * 0])
        scores = []
        for e in self.experts:
            scores.append(e(x))
        scores = torch.stack(scores)  # (5, 2)
        choice = torch.nn.functional.one_hot(torch.tensor(idx), len(WAXES)).float()
        if self.racing:
            scores = scores * 1.5
        return choice, topcoat, scores


def model():
    torch.manual_seed(107)
    return SkiWax().eval()


def _probe(n, t, rh):
    k = torch.arange(n, dtype=torch.float32)
    return (torch.full((n,), t) + 0.2 * torch.sin(k), torch.full((n,), rh) + 0.01 * torch.cos(k))


def example_inputs():
    return _probe(6, -2.5, 0.9)


def dynamic_shapes():
    n = Dim("probes", min=2, max=48)
    return ({0: n}, {0: n})


def verify_inputs():
    return [
        example_inputs(),            # red, humid -> topcoat
        _probe(2, 0.5, 0.6),         # yellow, dry -> no topcoat
        _probe(48, -6.0, 0.9),       # violet, humid but cold -> no topcoat
        _probe(10, -11.0, 0.5),      # blue
        _probe(3, -20.0, 0.3),       # green
        _probe(5, 0.0, 0.95),        # yellow, humid -> topcoat
    ]
