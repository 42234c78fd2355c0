"""Corn sidedress nitrogen recommendation per management zone: late-spring
nitrate test (LSNT) rule, soybean credit, and a canopy-stress index from a drone
multispectral tile feeding a small zone MLP."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim


class SidedressRecommender(nn.Module):
    def __init__(self):
        super().__init__()
        self.canopy_net = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(),
            nn.Conv2d(8, 8, 3, stride=2), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 1))
        self.zone_layers = nn.ModuleList([nn.Linear(6, 16), nn.Linear(16, 16), nn.Linear(16, 1)])
        self.sufficient_ppm = 25.0
        self.lb_per_ppm = 8.0
        self.soy_credit_lb = 30.0
        self.max_rate = 180.0
        self.max_tile_pixels = 128 * 128

    def canopy_stress(self, tile):
        if tile.shape[2] * tile.shape[3] > self.max_tile_pixels:
            tile = F.avg_pool2d(tile, 2)  # full-res drone tiles are overkill for a stress index
        return torch.sigmoid(self.canopy_net(tile)).reshape(())

    def forward(self, zones, tile):
        # zones: [Z, 5] = nitrate ppm, yield goal (bu/ac /100), organic matter %, prev soybean, NDVI
        nitrate = zones[:, 0]
        if (nitrate >= self.sufficient_ppm).all():
            # whole field tests sufficient: no sidedress anywhere
            return torch.zeros(zones.shape[0]), torch.zeros(())
        stress = self.canopy_stress(tile)
        h = torch.cat([zones, stress.expand(zones.shape[0], 1)], dim=1)
        for i, layer in enumerate(self.zone_layers):
            h = layer(h)
            if i < len(self.zone_layers) - 1:
                h = torch.relu(h)
        adjust = 20.0 * torch.tanh(h.squeeze(1))
        rate = (self.sufficient_ppm - nitrate).clamp(min=0.0) * self.lb_per_ppm + adjust
        ndvi = zones[:, 4]
        if ndvi.mean() < 0.5 or (ndvi < 0.3).any():
            rate = rate * (1.0 + 0.2 * stress)  # lagging canopy, lean towards more N
        after_soy = zones[:, 3] > 0.5
        if after_soy.any():
            rate = torch.where(after_soy, rate - self.soy_credit_lb, rate)
        return rate.clamp(0.0, self.max_rate), stress


def model():
    torch.manual_seed(5204)
    return SidedressRecommender().eval()


def _zones(n, seed, ppm_lo, ppm_hi, soy_frac, ndvi_lo, ndvi_hi):
    g = torch.Generator().manual_seed(seed)
    ppm = ppm_lo + (ppm_hi - ppm_lo) * torch.rand(n, generator=g)
    goal = 1.6 + 0.8 * torch.rand(n, generator=g)
    om = 1.5 + 3.0 * torch.rand(n, generator=g)
    soy = (torch.rand(n, generator=g) < soy_frac).float()
    ndvi = ndvi_lo + (ndvi_hi - ndvi_lo) * torch.rand(n, generator=g)
    return torch.stack([ppm, goal, om, soy, ndvi], 1)


def _tile(h, w, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.rand(1, 3, h, w, generator=g)


def example_inputs():
    return _zones(16, 1, 8.0, 30.0, 0.4, 0.35, 0.8), _tile(64, 96, 1)


def dynamic_shapes():
    return ({0: Dim("zones", min=2, max=128)},
            {2: Dim("tile_h", min=32, max=256), 3: Dim("tile_w", min=32, max=256)})


def verify_inputs():
    return [
        example_inputs(),                                            # small tile, soy credit, canopy ok (mean>=.5, none <.3)
        (_zones(2, 2, 26.0, 40.0, 0.5, 0.5, 0.9), _tile(32, 32, 2)),  # all sufficient -> early return; min sizes
        (_zones(128, 3, 5.0, 28.0, 0.0, 0.2, 0.6), _tile(256, 256, 3)),  # big tile -> pool; mean NDVI < .5; no soy; max sizes
        (_zones(40, 4, 10.0, 22.0, 1.0, 0.25, 0.95), _tile(160, 120, 4)),  # big tile; mean >= .5 but a zone < .3 -> `or` second
        (_zones(7, 5, 12.0, 20.0, 0.3, 0.6, 0.9), _tile(100, 48, 5)),    # healthy canopy, some soy
    ]
