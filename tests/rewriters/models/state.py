"""Recurrent state that starts as None (first iteration peeled), adaptive computation time,
dict outputs, branches on the loop counter, ranges that start at 1."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded

SEQ = torch.export.Dim("seq", min=1, max=64)


class CellNoneInit(nn.Module):
    def __init__(self):
        super().__init__()
        self.cell = nn.GRUCell(3, 6)

    def forward(self, x):
        h = None
        outs = []
        for t in range(x.shape[1]):
            h = self.cell(x[:, t], h)
            outs.append(h)
        return torch.stack(outs, 1), h


class ACT(nn.Module):
    def __init__(self):
        super().__init__()
        self.halt = nn.Linear(4, 1)
        self.step = nn.Linear(4, 4)

    def forward(self, x):
        halt = torch.zeros(x.shape[0])
        n = 0
        out = torch.zeros_like(x)
        while (halt < 0.99).any() and n < 10:
            p = torch.sigmoid(self.halt(x)).squeeze(-1)
            x = torch.tanh(self.step(x))
            out = out + p.unsqueeze(-1) * x
            halt = halt + p
            n += 1
        return out, n


class DictOut(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        y = self.fc(x)
        if y.max() > 0.5:
            return {"logits": y, "flag": y.max()}
        return {"logits": -y, "flag": y.min()}


class FirstStep(nn.Module):
    def forward(self, x):
        h = torch.zeros(x.shape[0])
        for t in range(x.shape[1]):
            if t == 0:
                h = x[:, t]
            else:
                h = 0.5 * h + x[:, t]
        return h


class DecayFromOne(nn.Module):
    def forward(self, x):
        states = [x[:, 0]]
        h = x[:, 0]
        for t in range(1, x.shape[1]):
            h = h * 0.9 + x[:, t] * (t / 10.0)
            states.append(h)
        return torch.stack(states).transpose(0, 1)


CASES = [
    Case(
        "rnn_cell_state_starts_none",
        seeded(CellNoneInit),
        (torch.randn(2, 5, 3),),
        [(torch.randn(2, 1, 3),), (torch.randn(2, 11, 3),)],
        ({1: SEQ},),
        constructs=("for->scan",),
    ),
    Case(
        "adaptive_computation_time",
        seeded(ACT),
        (torch.randn(2, 4),),
        [(torch.randn(2, 4) * 5,), (-torch.randn(2, 4) * 5,)],
        constructs=("while->while_loop",),
    ),
    Case(
        "dict_outputs_in_branches",
        seeded(DictOut),
        (torch.randn(2, 4),),
        [(torch.randn(2, 4) * 5,), (-torch.randn(2, 4) * 5,)],
        constructs=("if->cond",),
    ),
    Case(
        "branch_on_loop_counter",
        seeded(FirstStep),
        (torch.randn(2, 5),),
        [(torch.randn(2, 1),), (torch.randn(2, 11),)],
        ({1: SEQ},),
        constructs=("for->while_loop",),
    ),
    Case(
        "range_from_one_append",
        seeded(DecayFromOne),
        (torch.randn(2, 5),),
        [(torch.randn(2, 1),), (torch.randn(2, 12),)],
        ({1: SEQ},),
        constructs=("for->scan",),
    ),
]
