"""Autoregressive multi-step return forecaster with a volatility circuit breaker.

A GRU cell encodes the (variable length) history of daily features, then the
model rolls out `horizon` future steps (horizon given as a tensor), feeding
each prediction back.  If any predicted absolute return exceeds the circuit
breaker limit the rollout stops early, as a trading system would halt.
"""
import torch
import torch.nn as nn


class HorizonForecaster(nn.Module):
    def __init__(self, n_feat=4, hidden=24, halt_at=1.25):
        super().__init__()
        self.cell = nn.GRUCell(n_feat, hidden)
        self.readout = nn.Linear(hidden, n_feat)
        self.halt_at = halt_at
        self.hidden = hidden

    def encode(self, history):
        h = history.new_zeros(history.shape[0], self.hidden)
        for t in range(history.shape[1]):
            h = self.cell(history[:, t], h)
        return h

    def forward(self, history, horizon):
        h = self.encode(history)
        x = history[:, -1]
        preds = []
        for _ in range(int(horizon.item())):
            x = self.readout(h) + x
            preds.append(x)
            if (x[:, 0].abs() > self.halt_at).any():
                break
            h = self.cell(x, h)
        if len(preds) == 0:
            return history.new_zeros(history.shape[0], 0, history.shape[2])
        return torch.stack(preds, dim=1)


def model():
    torch.manual_seed(0)
    m = HorizonForecaster()
    with torch.no_grad():
        m.readout.weight.mul_(0.3)
        m.readout.bias.zero_()
        m.readout.bias[0] = 0.1  # learned upward drift
    return m.eval()


def _history(g, B, T, scale=0.3):
    return torch.randn(B, T, 4, generator=g) * scale


def example_inputs():
    g = torch.Generator().manual_seed(0)
    return (_history(g, 3, 10), torch.tensor(4))


def dynamic_shapes():
    return ({0: torch.export.Dim("batch", min=2, max=16),
             1: torch.export.Dim("days", min=2, max=60)}, None)


def verify_inputs():
    g = torch.Generator().manual_seed(5)
    return [
        (_history(g, 2, 5), torch.tensor(0)),            # no rollout
        (_history(g, 4, 2), torch.tensor(1)),            # single step, short history
        (_history(g, 3, 30), torch.tensor(6)),           # full rollout
        (_history(torch.Generator().manual_seed(7), 3, 20) + torch.tensor([0.4, 0, 0, 0]),
         torch.tensor(12)),                              # circuit breaker halts after 7 steps
        (_history(g, 2, 12) + torch.tensor([1.4, 0, 0, 0]), torch.tensor(5)),  # halts at step 1
    ]
