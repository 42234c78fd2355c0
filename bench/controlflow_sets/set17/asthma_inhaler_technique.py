"""Asthma inhaler technique coach: segment flow into breaths, grade each breath (typical)."""
import torch
from torch import nn


class BreathGrader(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(3, hidden), nn.ReLU(), nn.Linear(hidden, 3))

    def forward(self, peak, dur, vol):
        f = torch.stack([peak, dur, vol])
        logits = self.mlp(f)
        if peak > 60.0 and dur < 2.0:
            # too fast: force "too fast" class
            logits = logits + torch.tensor([0.0, 10.0, 0.0])
        elif not (vol > 1.0):
            logits = logits + torch.tensor([0.0, 0.0, 10.0])
        return logits.softmax(-1)


class InhalerCoach(nn.Module):
    def __init__(self):
        super().__init__()
        self.grader = BreathGrader()

    def forward(self, flow: torch.Tensor, n_breaths: torch.Tensor):
        # flow: [N, S] per-breath flow samples (L/min) at 10 Hz; n_breaths: valid rows
        grades = []
        for i in range(int(n_breaths.item())):
            b = flow[i]
            peak = b.max()
            active = (b > 5.0).float()
            dur = active.sum() * 0.1
            vol = (b * active).sum() * 0.1 / 60.0
            grades.append(self.grader(peak, dur, vol))
        if len(grades) == 0:
            return torch.zeros(0, 3)
        return torch.stack(grades)


def model():
    torch.manual_seed(15)
    return InhalerCoach().eval()


def _flow(n, kinds):
    rows = []
    for k in kinds:
        r = torch.zeros(40)
        if k == "fast":
            r[:10] = 90.0
        elif k == "weak":
            r[:10] = 20.0
        else:
            r[:30] = 40.0
        rows.append(r)
    while len(rows) < n:
        rows.append(torch.zeros(40))
    return torch.stack(rows)


def example_inputs():
    return (_flow(4, ["good", "fast"]), torch.tensor(2))


def dynamic_shapes():
    return ({0: torch.export.Dim("rows", min=2, max=16), 1: torch.export.Dim("samples", min=8, max=600)}, None)


def verify_inputs():
    return [(_flow(3, ["weak", "good", "good"]), torch.tensor(3)), (_flow(2, []), torch.tensor(0))]
