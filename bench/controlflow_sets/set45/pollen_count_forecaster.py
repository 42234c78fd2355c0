"""Grass-pollen forecast for the next three days from daily weather history
with a GRU, padding short histories, rain wash-out and a frost season-end rule.

Kind T. Constructs: 1, 2, 8, 9.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim

# temp C, humidity %, rain mm, wind m/s, yesterday's pollen grains/m3
FEATURE_MEAN = [15.0, 65.0, 2.0, 4.0, 40.0]
FEATURE_STD = [8.0, 15.0, 4.0, 2.5, 40.0]


class PollenForecaster(nn.Module):
    def __init__(self, min_history=7, horizon=3, clip_output=True):
        super().__init__()
        self.min_history = min_history
        self.horizon = horizon
        self.clip_output = clip_output
        self.register_buffer("mean", torch.tensor(FEATURE_MEAN))
        self.register_buffer("std", torch.tensor(FEATURE_STD))
        self.gru = nn.GRU(5, 24, num_layers=2, batch_first=True)
        self.head = nn.Linear(24, horizon)

    def forward(self, weather):
        # weather: [B, T, 5] daily records, newest last
        B, T, F_ = weather.shape
        if T < self.min_history:
            pad = weather[:, :1].expand(B, self.min_history - T, F_)
            weather = torch.cat([pad, weather], dim=1)
        x = (weather - self.mean) / self.std
        _, h = self.gru(x)
        pred = 40.0 * F.softplus(self.head(h[-1]))

        rain_today = weather[:, -1, 2]
        if (rain_today > 5.0).all():
            pred = pred * 0.3  # everyone got washed out
        elif (rain_today > 5.0).any():
            pred = pred * torch.where(rain_today > 5.0, 0.3, 1.0).unsqueeze(1)
        if weather[:, -1, 0].mean() < 0.0:
            return torch.zeros_like(pred)  # hard frost ends the grass season
        if self.clip_output:
            pred = pred.clamp(max=500.0)
        return pred


def model():
    torch.manual_seed(8)
    return PollenForecaster().eval()


def _days(b, t, rain_last, temp_last, seed):
    g = torch.Generator().manual_seed(seed)
    mean = torch.tensor(FEATURE_MEAN)
    std = torch.tensor(FEATURE_STD)
    w = mean + 0.5 * std * torch.randn(b, t, 5, generator=g)
    w[..., 2] = w[..., 2].clamp_min(0.0)
    w[..., 4] = w[..., 4].clamp_min(0.0)
    w[:, -1, 2] = torch.tensor(rain_last)
    w[:, -1, 0] = torch.tensor(temp_last)
    return w


def example_inputs():
    return (_days(2, 14, [0.0, 1.0], [18.0, 20.0], 0),)


def dynamic_shapes():
    return ({0: Dim("stations", min=2, max=32), 1: Dim("days", min=3, max=60)},)


def verify_inputs():
    return [
        example_inputs(),  # 14 days (no pad), dry everywhere, warm
        (_days(3, 4, [12.0, 8.0, 20.0], [14.0, 15.0, 13.0], 1),),  # 4 < 7 days -> pad; all stations rainy -> all() branch
        (_days(2, 30, [0.5, 15.0], [22.0, 21.0], 2),),  # one station rainy -> elif any() branch
        (_days(4, 10, [0.0, 0.0, 0.0, 0.0], [-4.0, -2.0, 1.0, -6.0], 3),),  # mean temp < 0 -> frost early return
        (_days(2, 3, [0.0, 0.0], [25.0, 24.0], 4),),  # minimum days: padded, dry
        (_days(2, 60, [9.0, 7.0], [-3.0, -5.0], 5),),  # max days, all rainy and frost
    ]
