"""Air-quality (PM2.5) forecaster robust to sensor dropout.

Inputs: a window of readings from S co-located sensors, (T, S), and a validity mask
(T, S) (False = dropped packet / sensor fault). Readings are forward-filled in a helper;
sensors dead for the whole window are replaced by the cross-sensor mean; if too little of
the window is valid the model falls back to a climatology forecast and raises a flag.
"""
import torch
from torch import nn
import torch.nn.functional as F

S = 5
HORIZON = 6


class AirQualityForecaster(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.cell = nn.GRUCell(2 * S, hidden)
        self.head = nn.Linear(hidden, HORIZON)
        self.register_buffer("climatology", torch.tensor([18.0, 20.0, 24.0, 27.0, 25.0, 21.0]))
        self.register_buffer("sensor_means", torch.full((S,), 20.0))
        self.min_valid_frac = 0.3
        self.hidden = hidden

    def forward_fill(self, x, valid):
        last = torch.where(valid[0], x[0], self.sensor_means)
        filled = []
        for t in range(x.shape[0]):
            last = torch.where(valid[t], x[t], last)
            filled.append(last)
        return torch.stack(filled)

    def forward(self, x: torch.Tensor, valid: torch.Tensor):
        if valid.float().mean() < self.min_valid_frac:
            return self.climatology.clone(), torch.ones((), dtype=torch.bool)
        filled = self.forward_fill(x, valid)
        dead = ~valid.any(dim=0)
        if dead.any():
            alive_mean = (filled * (~dead).float()).sum(dim=1, keepdim=True) / (~dead).float().sum()
            filled = torch.where(dead, alive_mean, filled)
        z = (filled - 20.0) / 10.0
        h = torch.zeros(1, self.hidden)
        for t in range(x.shape[0]):
            h = self.cell(torch.cat([z[t], valid[t].float()]).unsqueeze(0), h)
        pred = 20.0 + 10.0 * self.head(h)[0]
        return F.softplus(pred), torch.zeros((), dtype=torch.bool)


def model():
    torch.manual_seed(5)
    return AirQualityForecaster().eval()


def _window(seed, T, drop_p, dead_sensor=None):
    g = torch.Generator().manual_seed(seed)
    trend = 20 + 8 * torch.sin(torch.linspace(0, 3, T)).view(T, 1)
    x = trend + torch.randn(T, S, generator=g) * 2.0
    valid = torch.rand(T, S, generator=g) > drop_p
    if dead_sensor is not None:
        valid[:, dead_sensor] = False
    return x, valid


def example_inputs():
    return _window(0, 24, 0.1)


def dynamic_shapes():
    t = torch.export.Dim("T", min=2, max=168)
    return ({0: t}, {0: t})


def verify_inputs():
    return [_window(1, 12, 0.8), _window(2, 48, 0.2, dead_sensor=3), _window(3, 2, 0.0),
            _window(4, 168, 0.5, dead_sensor=0)]
