"""Field-level crop yield estimation from a satellite time series (+ optional weather summary).

A GRU cell runs over the acquisition dates, skipping cloudy acquisitions; a small head predicts
yield, and a stress-correction submodule adjusts it when the NDVI peak shows drought stress.
"""

import torch
from torch import nn

N_BANDS = 6  # last band = cloud fraction


class StressCorrection(nn.Module):
    def __init__(self, hidden: int):
        super().__init__()
        self.fc = nn.Linear(hidden, 1)

    def forward(self, yld: torch.Tensor, ndvi_peak: torch.Tensor, h: torch.Tensor) -> torch.Tensor:
        factor = 1.0
        if ndvi_peak.mean() < 0.3:
            factor = 0.6 + 0.1 * torch.sigmoid(self.fc(h)).squeeze(-1)
        elif ndvi_peak.mean() < 0.5:
            factor = 0.85
        return yld * factor


class CropYield(nn.Module):
    def __init__(self, hidden: int = 32, use_weather: bool = True):
        super().__init__()
        self.cell = nn.GRUCell(N_BANDS - 1, hidden)
        self.use_weather = use_weather
        self.weather = nn.Linear(4, hidden)
        self.head = nn.ModuleList([nn.Linear(hidden, hidden), nn.Linear(hidden, hidden)])
        self.out = nn.Linear(hidden, 1)
        self.stress = StressCorrection(hidden)

    def forward(self, series: torch.Tensor, weather: torch.Tensor) -> torch.Tensor:
        # series: (N, T, bands); weather: (N, 4)
        n = series.shape[0]
        h = torch.zeros(n, self.cell.hidden_size)
        ndvi_peak = torch.zeros(n)
        for t in range(series.shape[1]):
            obs = series[:, t]
            if obs[:, -1].mean() > 0.5:  # mostly cloudy acquisition
                continue
            h = self.cell(obs[:, :-1], h)
            ndvi = (obs[:, 3] - obs[:, 2]) / (obs[:, 3] + obs[:, 2] + 1e-6)
            ndvi_peak = torch.maximum(ndvi_peak, ndvi)
        if self.use_weather:  # static
            h = h + torch.tanh(self.weather(weather))
        for layer in self.head:
            h = h + torch.relu(layer(h))
        yld = torch.nn.functional.softplus(self.out(h)).squeeze(-1) * 5.0  # t/ha
        return self.stress(yld, ndvi_peak, h)


def model() -> nn.Module:
    torch.manual_seed(0)
    return CropYield().eval()


def _series(n, t, red, nir, cloudy, seed):
    g = torch.Generator().manual_seed(seed)
    x = 0.1 + 0.05 * torch.rand(n, t, N_BANDS, generator=g)
    x[:, :, 2] = red + 0.02 * torch.rand(n, t, generator=g)
    x[:, :, 3] = nir + 0.02 * torch.rand(n, t, generator=g)
    x[:, :, -1] = 0.1
    for c in cloudy:
        x[:, c, -1] = 0.9
    return x


def example_inputs() -> tuple:
    torch.manual_seed(1)
    return (_series(3, 12, 0.05, 0.45, [4], 0), torch.randn(3, 4))


def dynamic_shapes():
    fields = torch.export.Dim("fields", min=2, max=64)
    return ({0: fields, 1: torch.export.Dim("dates", min=2, max=64)}, {0: fields})


def verify_inputs() -> list:
    torch.manual_seed(2)
    return [
        (_series(5, 20, 0.2, 0.3, [], 1), torch.randn(5, 4)),        # drought: NDVI peak < 0.3
        (_series(2, 6, 0.12, 0.3, [0, 5], 2), torch.randn(2, 4)),    # moderate stress
        (_series(2, 3, 0.1, 0.4, [0, 1, 2], 3), torch.randn(2, 4)),  # all cloudy: no update
    ]
