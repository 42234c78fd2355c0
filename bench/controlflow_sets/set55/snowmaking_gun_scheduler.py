"""Ski-resort snowmaking scheduler.

Takes an hourly weather forecast (wet-bulb temperature in degC, wind speed in
m/s, relative humidity in %) and decides, hour by hour, how many snow guns of
the fleet to run, plus the total water draw from the reservoir.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SnowmakingScheduler(nn.Module):
    def __init__(self, n_guns=24, eco_mode=True):
        super().__init__()
        self.n_guns = n_guns
        self.eco_mode = eco_mode            # cap fleet usage to save energy
        self.marginal_wet_bulb = -1.5       # above this no usable snow is made
        self.litres_per_gun_hour = 5400.0
        self.encoder = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, forecast):
        # forecast: [hours, 3] -> wet-bulb degC, wind m/s, RH %
        if forecast.shape[0] > 48:
            # multi-day forecast: the crew plans in 2-hour blocks
            blocks = F.avg_pool1d(forecast.t().unsqueeze(0), kernel_size=2, ceil_mode=True)
            forecast = blocks.squeeze(0).t()

        wet_bulb = forecast[:, 0]
        wind = forecast[:, 1]
        if wet_bulb.min() > self.marginal_wet_bulb:
            # never cold enough: keep the whole fleet off
            idle = torch.zeros_like(wet_bulb)
            return idle, idle.sum()

        x = torch.stack([wet_bulb / 10.0, wind / 10.0, forecast[:, 2] / 100.0], dim=1)
        score = torch.sigmoid(self.encoder(x).squeeze(1) - wet_bulb)
        # calm nights let the fan guns throw further; gusty nights waste water
        fan_boost = 1.15 if wind.mean().item() < 4.0 else 0.85
        cap = 0.7 if self.eco_mode else 1.0
        frac = torch.clamp(score * fan_boost, max=cap) * (wet_bulb < self.marginal_wet_bulb).float()
        guns = torch.round(frac * self.n_guns)
        water = guns.sum() * self.litres_per_gun_hour
        return guns, water


def model():
    torch.manual_seed(5501)
    return SnowmakingScheduler().eval()


def _forecast(hours, base_temp, wind, seed):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(hours, dtype=torch.float32)
    wet_bulb = base_temp + 3.0 * torch.cos(2 * torch.pi * t / 24.0) + 0.3 * torch.randn(hours, generator=g)
    w = wind + torch.rand(hours, generator=g)
    rh = 60.0 + 30.0 * torch.rand(hours, generator=g)
    return (torch.stack([wet_bulb, w, rh], dim=1),)


def example_inputs():
    return _forecast(24, -5.0, 2.0, 1)


def dynamic_shapes():
    hours = torch.export.Dim("hours", min=2, max=96)
    return ({0: hours},)


def verify_inputs():
    return [
        example_inputs(),              # 24 h, cold and calm: no pooling, guns run, fan_boost 1.15
        _forecast(2, 4.0, 1.0, 2),     # hours=min, warm: early return with the fleet off
        _forecast(96, -6.0, 7.0, 3),   # hours=max > 48: pooled to 2 h blocks, windy -> fan_boost 0.85
        _forecast(49, -3.0, 1.5, 4),   # just over 48: pooled (odd length, ceil block), calm, mixed hours
        _forecast(30, 0.5, 6.0, 5),    # mostly marginal temps, windy, no pooling
    ]
