"""Pluvial flood screening on a LiDAR terrain raster.

The DEM arrives as integer centimetres (5 m cells). Large rasters are
coarsened. Closed depressions are filled iteratively (every interior cell that
is not higher than its lowest 8-neighbour is raised to that neighbour plus a
small step, until water can drain off the raster edge or the iteration budget
runs out). The fill depth is ponding storage; a small CNN predicts the runoff
coefficient from terrain and ponding, and the model flags when the storm's
runoff overwhelms the depression storage.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim


def shifted_stack(z, fill):
    p = F.pad(z.unsqueeze(0).unsqueeze(0), (1, 1, 1, 1), value=fill).squeeze(0).squeeze(0)
    h, w = z.shape
    shifts = []
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if dr == 0 and dc == 0:
                continue
            shifts.append(p[1 + dr:1 + dr + h, 1 + dc:1 + dc + w])
    return torch.stack(shifts)


def neighbour_min(z):
    return shifted_stack(z, 1.0e7).min(dim=0).values


def fill_depressions(z, step, max_iter):
    interior = torch.zeros_like(z, dtype=torch.bool)
    interior[1:-1, 1:-1] = True
    nmin = neighbour_min(z)
    sinks = (z <= nmin) & interior
    it = 0
    while sinks.any() and it < max_iter:
        z = torch.where(sinks, nmin + step, z)
        nmin = neighbour_min(z)
        sinks = (z <= nmin) & interior
        it += 1
    return z, it


class DepressionFloodModel(nn.Module):
    def __init__(self, step=5.0, max_iter=40, max_cells=1024, cell_area=25.0):
        super().__init__()
        self.step = step
        self.max_iter = max_iter
        self.max_cells = max_cells
        self.cell_area = cell_area
        self.runoff = nn.Sequential(nn.Conv2d(2, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 1, 3, padding=1))

    def forward(self, dem_cm, rain_mm):
        z = dem_cm.to(rain_mm.dtype)
        area = self.cell_area
        if z.shape[0] * z.shape[1] > self.max_cells:
            z = F.avg_pool2d(z.unsqueeze(0).unsqueeze(0), 2).squeeze(0).squeeze(0)
            area = area * 4.0

        filled, iters = fill_depressions(z, self.step, self.max_iter)
        depth_m = (filled - z) / 100.0
        if not (depth_m > 0).any():
            # no closed depressions: every drop runs off, nothing to store
            return depth_m, depth_m.new_zeros(()), torch.tensor(False), torch.tensor(iters)

        zn = (z - z.mean()) / (z.std() + 1.0)
        coeff = torch.sigmoid(self.runoff(torch.stack([zn, depth_m]).unsqueeze(0))).squeeze(0).squeeze(0)
        runoff_m3 = (coeff * rain_mm[0] / 1000.0 * area).sum()
        storage_m3 = depth_m.sum() * area
        overflow = runoff_m3 > storage_m3
        return depth_m, storage_m3, overflow, torch.tensor(iters)


def model():
    torch.manual_seed(71)
    return DepressionFloodModel().eval()


def _dem(h, w, pits=(), slope=2, base=10000):
    """Tilted plane (cm) with cone-shaped pits (row, col, radius, depth_cm); integer centimetres."""
    r = torch.arange(h).unsqueeze(1).float()
    c = torch.arange(w).unsqueeze(0).float()
    z = base + slope * (r + 2 * c)
    for pr, pc, rad, depth in pits:
        d = ((r - pr) ** 2 + (c - pc) ** 2).sqrt()
        z = z - depth * torch.clamp(1.0 - d / rad, min=0.0)
    return torch.round(z).to(torch.int64)


def example_inputs():
    return _dem(12, 12, pits=[(6, 6, 3.0, 40)]), torch.tensor([30.0])


def dynamic_shapes():
    return ({0: Dim("rows", min=4, max=64), 1: Dim("cols", min=4, max=64)}, None)


def verify_inputs():
    return [
        example_inputs(),                                         # one shallow pit: several fill iterations
        (_dem(10, 14), torch.tensor([30.0])),                     # no depressions: loop 0 times, early return
        (_dem(12, 12, pits=[(5, 6, 4.0, 600)]), torch.tensor([20.0])),  # deep quarry: iteration budget exhausted
        (_dem(48, 40, pits=[(10, 10, 5.0, 60), (30, 25, 6.0, 90)]), torch.tensor([80.0])),
        # ^ large raster coarsened (> max_cells), two basins, heavy storm overflows storage
        (_dem(4, 4, pits=[(1, 2, 1.0, 10)]), torch.tensor([5.0])),  # minimum raster, 1 iteration fills the pit
        (_dem(64, 64, pits=[(32, 32, 10.0, 80)], slope=1), torch.tensor([2.0])),  # max raster, wide basin: budget exhausted; light rain, no overflow
    ]
