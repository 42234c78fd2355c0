"""Avalanche danger rating for one aspect/elevation band of a forecast region.

Inputs are a manual snow-pit profile (one row per layer, surface first) and the
hourly weather of the last days.  A weak layer is a layer much softer and more
coarse-grained than the one above it; its burial depth, recent loading by new
snow and wind and warming push the danger level up the 1-5 scale.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class AvalancheDanger(nn.Module):
    def __init__(self):
        super().__init__()
        self.hardness_drop = 1.5     # hand-hardness steps (1 = fist ... 5 = knife)
        self.coarse_grain_mm = 1.2
        self.max_reactive_depth_cm = 100.0
        self.storm_snow_cm = 30.0
        self.wind_transport_ms = 8.0
        self.history_h = 72
        self.stability = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 1))

    def weak_layer(self, layers):
        """Depth (cm) of the first persistent weak layer from the surface, and a found flag."""
        depth = torch.zeros(())
        for i in range(layers.shape[0] - 1):
            depth = depth + layers[i, 0]
            softer = layers[i, 2] - layers[i + 1, 2] > self.hardness_drop
            if softer and layers[i + 1, 3] > self.coarse_grain_mm:
                return depth, torch.ones(())
        return depth, torch.zeros(())

    def forward(self, layers, weather):
        # layers: [L, 4] thickness cm, density (100 kg/m3), hand hardness, grain size mm
        # weather: [T, 3] new snow cm/h, wind m/s, air temperature C
        if weather.shape[0] > self.history_h:
            weather = weather[-self.history_h:]
        new_snow = weather[:, 0].sum()
        windy_hours = (weather[:, 1] > self.wind_transport_ms).float().sum()
        warming = weather[-6:, 2].mean() > 0.0

        depth, found = self.weak_layer(layers)
        level = torch.ones(())
        if found > 0 and depth < self.max_reactive_depth_cm:
            level = level + 1
            if new_snow > self.storm_snow_cm or windy_hours > 12:
                level = level + 1
        if new_snow > 2 * self.storm_snow_cm:
            level = level + 1
        if warming and not new_snow < 10.0:
            level = level + 1            # wet loose / wet slab on a fresh load
        level = level.clamp(max=5.0)

        feats = torch.stack([depth / 100.0, found, new_snow / 50.0, windy_hours / 24.0,
                             weather[:, 2].mean() / 10.0, layers[:, 1].mean()])
        stability = torch.sigmoid(self.stability(feats))[0]
        return level, stability, depth


def model():
    torch.manual_seed(15)
    return AvalancheDanger().eval()


def _gen_weather(n, snow_cm_h, wind, temp, seed):
    g = torch.Generator().manual_seed(seed)
    snow = snow_cm_h * torch.rand(n, generator=g) * 2
    w = wind + 1.5 * torch.randn(n, generator=g)
    t = temp + 1.0 * torch.randn(n, generator=g)
    return torch.stack([snow, w, t], 1)


def example_inputs():
    layers = torch.tensor([[20.0, 1.0, 1.0, 0.5],
                           [35.0, 2.5, 4.0, 1.0],
                           [3.0, 2.0, 1.0, 2.5],     # surface hoar buried under a crust
                           [80.0, 3.5, 4.0, 1.0]])
    return layers, _gen_weather(48, 0.5, 4.0, -8.0, 0)


def dynamic_shapes():
    return {0: Dim("layers", min=2, max=32)}, {0: Dim("hours", min=2, max=168)}


def verify_inputs():
    deep = torch.tensor([[60.0, 1.0, 1.0, 0.5],
                         [70.0, 3.0, 4.0, 1.0],
                         [5.0, 2.0, 2.0, 3.0],       # depth hoar at 130 cm
                         [40.0, 3.0, 4.0, 1.0]])
    solid = torch.tensor([[10.0, 1.5, 2.0, 0.5],
                          [50.0, 3.0, 3.0, 1.0],
                          [50.0, 3.5, 4.0, 1.0]])
    pair = torch.tensor([[15.0, 2.0, 4.0, 0.8],
                         [40.0, 1.5, 1.0, 0.6]])     # much softer but fine-grained: not persistent
    ex_layers, _ = example_inputs()
    return [
        example_inputs(),                                            # shallow weak layer, quiet weather -> 2
        (ex_layers, _gen_weather(100, 1.2, 10.0, -6.0, 1)),          # >72 h cropped, storm + wind on weak layer -> 4
        (deep, _gen_weather(24, 0.2, 3.0, -10.0, 2)),                # weak layer too deep, cold -> 1
        (solid, _gen_weather(30, 1.0, 5.0, 2.0, 3)),                 # no weak layer, ~25 cm new snow and warming -> 2
        (pair, _gen_weather(2, 0.5, 2.0, 1.0, 4)),                   # 2 layers (not weak), 2 h, warm but little snow -> 1
        (ex_layers, _gen_weather(60, 0.1, 12.0, -4.0, 5)),           # weak layer, little snow but long wind loading -> 3
    ]
