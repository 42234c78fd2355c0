"""LSTM encoder-decoder forecaster: autoregressive roll-out for a horizon given as a tensor (teacher forcing off)."""

import torch
from torch import nn

N_FEAT, HID = 3, 32


class Forecaster(nn.Module):
    def __init__(self, teacher_forcing: float = 0.5):
        super().__init__()
        self.encoder = nn.LSTM(N_FEAT, HID, num_layers=2, batch_first=True)
        self.decoder = nn.LSTMCell(N_FEAT, HID)
        self.proj = nn.Linear(HID, N_FEAT)
        self.teacher_forcing = teacher_forcing

    def forward(self, history, horizon, target=None):
        # per-series normalisation (RevIN-like)
        loc = history.mean(dim=1, keepdim=True)
        scale = history.std(dim=1, keepdim=True) + 1e-3 if history.shape[1] > 1 else torch.ones_like(loc)
        x = (history - loc) / scale
        _, (h, c) = self.encoder(x)
        h, c = h[-1], c[-1]
        step_in = x[:, -1]
        preds = []
        for t in range(int(horizon.item())):
            h, c = self.decoder(step_in, (h, c))
            y = self.proj(h) + step_in
            preds.append(y.unsqueeze(1))
            if self.training and target is not None and torch.rand(()) < self.teacher_forcing:
                step_in = (target[:, t] - loc[:, 0]) / scale[:, 0]
            else:
                step_in = y
        out = torch.cat(preds, dim=1)
        return out * scale + loc


def model():
    torch.manual_seed(0)
    return Forecaster().eval()


def example_inputs():
    torch.manual_seed(1)
    t = torch.linspace(0, 6, 48)
    hist = torch.stack([torch.sin(t), torch.cos(t), 0.1 * t], dim=-1).unsqueeze(0).repeat(2, 1, 1)
    return (hist + 0.05 * torch.randn(2, 48, N_FEAT), torch.tensor(6))


def dynamic_shapes():
    return ({1: torch.export.Dim("history", min=1, max=256)}, None)


def verify_inputs():
    g = torch.Generator().manual_seed(3)
    return [
        (torch.randn(2, 1, N_FEAT, generator=g), torch.tensor(3)),  # one-step history: std branch skipped
        (torch.randn(2, 256, N_FEAT, generator=g).cumsum(1), torch.tensor(1)),  # horizon 1
        (torch.randn(2, 20, N_FEAT, generator=g) * 5 + 10, torch.tensor(24)),  # long horizon
        (torch.randn(2, 2, N_FEAT, generator=g), torch.tensor(8)),
    ]
