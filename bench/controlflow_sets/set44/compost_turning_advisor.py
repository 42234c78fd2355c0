"""Windrow compost turning advisor from daily core temperature probes.

Kind T. Constructs: 1, 5, 6, 9.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class CompostAdvisor(nn.Module):
    def __init__(self, units="fahrenheit", hot_c=55.0, cool_c=25.0):
        super().__init__()
        self.units = units
        self.hot_c = hot_c
        self.cool_c = cool_c
        self.seq = nn.Conv1d(2, 6, kernel_size=3, padding=1)
        self.head = nn.Linear(6, 2)

    def forward(self, temps):
        # temps: (D, 2) daily probe readings (core, surface)
        if self.units == "fahrenheit":
            temps = (temps - 32.0) * (5.0 / 9.0)
        core = temps[:, 0]
        hot_days = torch.zeros(())
        streak = torch.zeros(())
        best = torch.zeros(())
        for d in range(temps.shape[0]):
            if core[d] < self.cool_c:
                # pile has gone cold: active phase is over
                break
            if core[d] < self.hot_c:
                streak = torch.zeros(())
                continue
            hot_days = hot_days + 1
            streak = streak + 1
            best = torch.maximum(best, streak)
        feats = torch.relu(self.seq(temps.t().unsqueeze(0))).mean(-1).squeeze(0)
        turn_score = torch.sigmoid(self.head(feats))
        return torch.stack([hot_days, best]), turn_score


def model():
    torch.manual_seed(105)
    return CompostAdvisor().eval()


def _pile(core_f):
    core = torch.tensor(core_f, dtype=torch.float32)
    return torch.stack([core, core - 30.0], dim=1)


def example_inputs():
    return (_pile([120.0, 140.0, 145.0, 150.0, 120.0, 145.0, 148.0, 130.0, 100.0, 70.0, 140.0]),)


def dynamic_shapes():
    return ({0: Dim("days", min=3, max=90)},)


def verify_inputs():
    return [
        example_inputs(),                 # hot days, warm (continue) days, then break on cold day
        (_pile([60.0, 150.0, 150.0]),),   # cold on day 0 -> break immediately (0 iterations of body)
        (_pile([150.0] * 90),),           # never breaks, all hot
        (_pile([120.0, 110.0, 125.0]),),  # only warm days -> continue each time
    ]
