"""Real-time strategy game fog of war: per-tick visibility from living units'
sight radii on a 32x32 tile map, explored-map accumulation, cells revealed per
unit for the minimap, and a learned threat heatmap over the unseen area."""
import torch
import torch.nn as nn
from torch.export import Dim


class FogOfWar(nn.Module):
    def __init__(self):
        super().__init__()
        self.map_size = 32
        ys, xs = torch.meshgrid(torch.arange(32.0), torch.arange(32.0), indexing="ij")
        self.register_buffer("cell_x", xs + 0.5)
        self.register_buffer("cell_y", ys + 0.5)
        self.threat = nn.Sequential(nn.Conv2d(2, 4, 5, padding=2), nn.ReLU(), nn.Conv2d(4, 1, 3, padding=1))
        self.vectorize_above = 64

    def unit_sight(self, unit):
        d2 = (self.cell_x - unit[0]) ** 2 + (self.cell_y - unit[1]) ** 2
        return (d2 <= unit[2] ** 2).float()

    def forward(self, units, explored):
        # units: [U, 4] = x, y, sight radius (tiles), hp; explored: [32, 32] 0/1
        alive = units[:, 3] > 0
        if not alive.any():
            # everyone is dead: nothing is visible, keep the old explored map
            return torch.zeros_like(explored), explored.clone(), torch.zeros(units.shape[0]), torch.zeros_like(explored)
        if units.shape[0] > self.vectorize_above:
            d2 = (self.cell_x[None] - units[:, 0, None, None]) ** 2 + (self.cell_y[None] - units[:, 1, None, None]) ** 2
            seen = (d2 <= units[:, 2, None, None] ** 2) & alive[:, None, None]
            visible = seen.any(0).float()
            per_unit = seen.float().sum((1, 2))
        else:
            visible = torch.zeros_like(explored)
            counts = []
            for u in range(units.shape[0]):
                if units[u, 3] <= 0:
                    counts.append(torch.zeros(()))
                    continue
                sight = self.unit_sight(units[u])
                visible = torch.maximum(visible, sight)
                counts.append(sight.sum())
            per_unit = torch.stack(counts)
        explored = torch.maximum(explored, visible)
        threat = torch.sigmoid(self.threat(torch.stack([visible, explored])[None]))[0, 0] * (1.0 - visible)
        return visible, explored, per_unit, threat


def model():
    torch.manual_seed(5208)
    return FogOfWar().eval()


def _units(n, seed, dead_frac):
    g = torch.Generator().manual_seed(seed)
    xy = 32.0 * torch.rand(n, 2, generator=g)
    radius = 2.0 + 5.0 * torch.rand(n, 1, generator=g)
    hp = torch.where(torch.rand(n, 1, generator=g) < dead_frac, torch.zeros(n, 1), 10.0 + 90.0 * torch.rand(n, 1, generator=g))
    return torch.cat([xy, radius, hp], 1)


def _explored(seed):
    g = torch.Generator().manual_seed(seed)
    return (torch.rand(32, 32, generator=g) > 0.7).float()


def example_inputs():
    return _units(12, 1, 0.25), _explored(1)


def dynamic_shapes():
    return {0: Dim("units", min=2, max=128)}, None


def verify_inputs():
    return [
        example_inputs(),                   # loop path with some dead units (continue)
        (_units(128, 2, 0.3), _explored(2)),  # max units -> vectorized path
        (_units(2, 3, 1.0), _explored(3)),    # min units, all dead -> early return
        (_units(65, 4, 0.0), _explored(4)),   # just over the vectorize threshold, all alive
        (_units(64, 5, 0.1), _explored(5)),   # at the threshold -> loop path
    ]
