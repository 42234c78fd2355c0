"""Grain-bin aeration fan controller for stored corn.

Temperature cables hang in the bin (each with 8 sensors top to bottom). Given
the cable readings, the grain moisture and an hourly ambient forecast
(temperature degC, RH %), the controller picks the hours in which to run the
aeration fans and estimates a spoilage-risk score for the bin.
"""
import torch
import torch.nn as nn


def equilibrium_moisture(temp_c, rh_pct):
    """Modified Chung-Pfost equilibrium moisture content for shelled corn (% d.b.)."""
    a, b, c = 312.40, 16.958, 30.205
    rh = (rh_pct / 100.0).clamp(0.05, 0.95)
    emc = -torch.log(-(temp_c + c) * torch.log(rh) / a) / b
    return 100.0 * emc


def aeration_hours(ambient, grain_temp, grain_moisture):
    emc = equilibrium_moisture(ambient[:, 0], ambient[:, 1])
    # cool aggressively while the grain is warm, otherwise only maintain
    delta = 5.0 if grain_temp > 15.0 else 3.0
    cool_enough = ambient[:, 0] < grain_temp - delta
    wont_rewet = emc < grain_moisture + 1.0
    return cool_enough & wont_rewet


class SiloAerationController(nn.Module):
    def __init__(self, hot_spot_c=5.0):
        super().__init__()
        self.hot_spot_c = hot_spot_c
        self.layers = nn.ModuleList([nn.Linear(6, 16), nn.Linear(16, 16), nn.Linear(16, 1)])

    def forward(self, cable_temps, grain_moisture, ambient):
        grain_mean = cable_temps.mean()
        hot_spot = cable_temps.max() - cable_temps.median()
        window = aeration_hours(ambient, grain_mean, grain_moisture[0])

        if hot_spot > self.hot_spot_c and window.any():
            fan = window.float()
        elif hot_spot > self.hot_spot_c:
            # hot spot but no ideal weather: run through the drier half of the hours
            fan = (ambient[:, 1] <= ambient[:, 1].median()).float()
        else:
            fan = 0.5 * window.float()

        h = torch.stack([grain_mean / 30.0, hot_spot / 10.0, grain_moisture[0] / 20.0,
                         cable_temps[:, 0].mean() / 30.0, cable_temps[:, -1].mean() / 30.0,
                         fan.mean()])
        for i, layer in enumerate(self.layers):
            h = layer(h)
            if i < len(self.layers) - 1:
                h = torch.relu(h)
        risk = torch.sigmoid(h).squeeze(0)
        return fan, risk


def model():
    torch.manual_seed(5505)
    return SiloAerationController().eval()


def _bin(cables, hours, grain_c, hot, amb_c, rh, seed):
    g = torch.Generator().manual_seed(seed)
    temps = grain_c + 0.5 * torch.randn(cables, 8, generator=g)
    temps[cables // 2, 3] += hot
    t = torch.arange(hours, dtype=torch.float32)
    amb_t = amb_c + 4.0 * torch.cos(2 * torch.pi * t / 24.0) + 0.2 * torch.randn(hours, generator=g)
    amb_rh = rh + 10.0 * torch.rand(hours, generator=g)
    return temps, torch.tensor([15.5]), torch.stack([amb_t, amb_rh], dim=1)


def example_inputs():
    return _bin(6, 24, 18.0, 8.0, 8.0, 55.0, 1)


def dynamic_shapes():
    cables = torch.export.Dim("cables", min=2, max=32)
    hours = torch.export.Dim("hours", min=2, max=48)
    return ({0: cables}, None, {0: hours})


def verify_inputs():
    return [
        example_inputs(),                          # warm grain, hot spot, cool dry hours -> run the window
        _bin(2, 2, 18.0, 9.0, 30.0, 80.0, 2),      # cables=min, hours=min: hot spot, no good hours -> drier half
        _bin(32, 48, 10.0, 0.0, 2.0, 60.0, 3),     # cables=max, hours=max: no hot spot, cool grain -> half-speed maintenance
        _bin(12, 36, 20.0, 1.0, 25.0, 90.0, 4),    # no hot spot, warm humid air -> nearly idle
    ]
