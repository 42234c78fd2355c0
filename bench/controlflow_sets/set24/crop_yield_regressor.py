"""Field-level crop yield regression from a daily weather series and a soil test.

Soil measurements that were not taken are encoded as -1 and imputed from a
learned prior; when no soil measurement at all is available a weather-only
head is used.  Long seasons are summarised by (approximately) weekly pooling
before the GRU, short ones are used at daily resolution.

weather: [fields, days, 4] = (temp, rain, radiation, humidity), normalised
soil:    [fields, 5] in [0, 1] or -1 for missing
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class CropYieldRegressor(nn.Module):
    def __init__(self, d=24, weekly_after=60, p_drop=0.2):
        super().__init__()
        self.weekly_after = weekly_after
        self.p_drop = p_drop
        self.soil_prior = nn.Parameter(torch.tensor([0.4, 0.5, 0.3, 0.6, 0.5]))
        self.gru = nn.GRU(4, d, batch_first=True)
        self.soil_enc = nn.Linear(5, d)
        self.head = nn.Sequential(nn.Linear(2 * d + 1, d), nn.ReLU(), nn.Linear(d, 1))
        self.weather_head = nn.Linear(d, 1)

    def summarise(self, weather):
        if weather.shape[1] > self.weekly_after:
            # [F, T, 4] -> [F, T/7, 4] by average pooling over weeks
            weather = F.avg_pool1d(weather.transpose(1, 2), 7, 7, ceil_mode=True).transpose(1, 2)
        _, h = self.gru(weather)
        return h[0]

    def forward(self, weather, soil):
        missing = soil < 0
        h = self.summarise(weather)
        if self.training:
            h = F.dropout(h, self.p_drop)
        if missing.all():
            return self.weather_head(h).squeeze(1)
        frac_missing = missing.float().mean(1, keepdim=True)
        if missing.any():
            soil = torch.where(missing, self.soil_prior.expand_as(soil), soil)
        z = torch.cat([h, self.soil_enc(soil), frac_missing], 1)
        return self.head(z).squeeze(1)


def model():
    torch.manual_seed(0)
    return CropYieldRegressor().eval()


def _weather(g, Fn, T):
    t = torch.arange(T, dtype=torch.float32).view(1, T, 1)
    season = torch.sin(t / 30.0)
    return season * torch.tensor([1.0, 0.2, 0.8, -0.5]) + 0.3 * torch.randn(Fn, T, 4, generator=g)


def _soil(g, Fn, missing_mask=None):
    s = torch.rand(Fn, 5, generator=g)
    if missing_mask is not None:
        s = torch.where(torch.tensor(missing_mask), torch.full_like(s, -1.0), s)
    return s


def example_inputs():
    g = torch.Generator().manual_seed(0)
    return (_weather(g, 3, 40), _soil(g, 3))


def dynamic_shapes():
    f = torch.export.Dim("fields", min=2, max=32)
    return ({0: f, 1: torch.export.Dim("days", min=7, max=200)}, {0: f})


def verify_inputs():
    g = torch.Generator().manual_seed(11)
    return [
        (_weather(g, 2, 30), _soil(g, 2)),                                       # complete soil data
        (_weather(g, 3, 120), _soil(g, 3, [[True, False, False, False, False],
                                           [False] * 5, [True] * 5])),           # partly missing, weekly
        (_weather(g, 2, 90), _soil(g, 2, [[True] * 5, [True] * 5])),             # nothing measured
    ]
