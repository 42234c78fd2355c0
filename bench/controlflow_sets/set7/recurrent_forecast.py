"""Recurrent forecaster: encode a dynamic-length history, then roll out a horizon given as a tensor.

for over range(x.shape[1]) (dynamic) and range(int(horizon.item())), list.append then torch.cat.
"""

import torch
from torch import nn


class Forecaster(nn.Module):
    def __init__(self, feats=3, hidden=32):
        super().__init__()
        self.hidden = hidden
        self.cell = nn.LSTMCell(feats, hidden)
        self.out = nn.Linear(hidden, feats)

    def forward(self, history, horizon):
        b = history.shape[0]
        h = torch.zeros(b, self.hidden)
        c = torch.zeros(b, self.hidden)
        for t in range(history.shape[1]):
            h, c = self.cell(history[:, t], (h, c))
        y = history[:, -1]
        preds = [y.unsqueeze(1)]
        for _ in range(int(horizon.item())):
            y = y + self.out(h)
            h, c = self.cell(y, (h, c))
            preds.append(y.unsqueeze(1))
        return torch.cat(preds, dim=1)


def model():
    torch.manual_seed(0)
    return Forecaster().eval()


def example_inputs():
    torch.manual_seed(1)
    return (torch.randn(2, 24, 3), torch.tensor(6))


def dynamic_shapes():
    return ({1: torch.export.Dim("history", min=2, max=256)}, None)


def verify_inputs():
    torch.manual_seed(7)
    return [
        (torch.randn(2, 24, 3), torch.tensor(0)),  # zero-step horizon
        (torch.randn(2, 5, 3), torch.tensor(1)),
        (torch.randn(2, 90, 3), torch.tensor(20)),
    ]
