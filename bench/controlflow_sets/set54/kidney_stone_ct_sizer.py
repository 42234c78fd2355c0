"""Urology CT reading aid: find, size and triage renal stones in a kidney crop.

Slice by slice, voxels above the stone threshold are grouped by seeded region
growing (brightest remaining voxel first, grow until the region stops
changing). Single hot voxels are ignored. Regions are linked to stones seen on
the neighbouring slice(s) by centroid distance. A stone wider than 2 cm stops
the read at once (staghorn-size, goes to PCNL); otherwise treatment follows
size and density (stones over ~1000 HU respond poorly to shock waves). A small
texture CNN scores each slice for the report.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

OBSERVE, SWL, URETEROSCOPY, PCNL = 0, 1, 2, 3


class SliceTexture(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3, padding=1)
        self.head = nn.Linear(4, 1)

    def forward(self, slice_hu):
        h = F.relu(self.conv(slice_hu[None, None] / 1000.0)).amax(dim=(2, 3))
        return torch.sigmoid(self.head(h)).reshape(())


class StoneSizer(nn.Module):
    def __init__(self, stone_hu=300.0, max_per_slice=3, link_px=3.0, urgent_mm=20.0):
        super().__init__()
        self.texture = SliceTexture()
        self.stone_hu = stone_hu
        self.max_per_slice = max_per_slice
        self.link_px = link_px
        self.urgent_mm = urgent_mm

    def _grow(self, seed_mask, bright):
        region = seed_mask
        grown = (F.max_pool2d(region[None, None].float(), 3, stride=1, padding=1)[0, 0] > 0) & bright
        while (grown != region).any():
            region = grown
            grown = (F.max_pool2d(region[None, None].float(), 3, stride=1, padding=1)[0, 0] > 0) & bright
        return region

    def forward(self, ct_hu, spacing_mm):
        slice_mm, pixel_mm = spacing_mm[0], spacing_mm[1]
        h, w = ct_hu.shape[1], ct_hu.shape[2]
        yy, xx = torch.meshgrid(torch.arange(h, dtype=ct_hu.dtype), torch.arange(w, dtype=ct_hu.dtype), indexing="ij")
        max_gap = 1 if ct_hu.shape[0] > 8 else 2  # thick slabs: allow a stone to skip a slice

        stones = []
        slice_scores = []
        urgent = False
        for s in range(ct_hu.shape[0]):
            slice_hu = ct_hu[s]
            slice_scores.append(self.texture(slice_hu))
            bright = slice_hu > self.stone_hu
            if not bright.any():
                continue
            remaining = bright
            found = 0
            while remaining.any() and found < self.max_per_slice:
                masked = torch.where(remaining, slice_hu, torch.full_like(slice_hu, -1e4))
                seed = masked.flatten().argmax()
                seed_mask = (torch.arange(h * w) == seed).reshape(h, w)
                region = self._grow(seed_mask, bright)
                remaining = remaining & ~region
                found += 1
                area = region.sum()
                if area < 2:
                    continue  # lone hot voxel: noise or a tiny vascular calcification
                cy = (yy * region).sum() / area
                cx = (xx * region).sum() / area
                mean_hu = slice_hu[region].mean()
                diameter_mm = 2.0 * torch.sqrt(area * pixel_mm * pixel_mm / math.pi)
                for stone in stones:
                    close = torch.hypot(stone["cy"] - cy, stone["cx"] - cx) < self.link_px
                    if s - stone["last"] <= max_gap and close:
                        stone["diams"].append(diameter_mm)
                        stone["hus"].append(mean_hu)
                        stone["cy"], stone["cx"], stone["last"] = cy, cx, s
                        stone["slices"] += 1
                        break
                else:
                    stones.append({"cy": cy, "cx": cx, "last": s, "slices": 1, "diams": [diameter_mm], "hus": [mean_hu]})
                if diameter_mm > self.urgent_mm:
                    urgent = True
                    break
            if urgent:
                break

        if not stones:
            return torch.tensor(0), torch.zeros(()), torch.zeros(()), torch.tensor(OBSERVE), torch.stack(slice_scores)

        sizes, densities = [], []
        for stone in stones:
            axial = torch.stack(stone["diams"]).max()
            sizes.append(torch.maximum(axial, stone["slices"] * slice_mm))
            densities.append(torch.stack(stone["hus"]).mean())
        sizes = torch.stack(sizes)
        largest = sizes.argmax()
        max_size, density = sizes[largest], torch.stack(densities)[largest]

        if urgent:
            plan = PCNL
        elif max_size < 5.0:
            plan = OBSERVE
        elif max_size <= 10.0 and density < 1000.0:
            plan = SWL
        else:
            plan = URETEROSCOPY
        return torch.tensor(len(stones)), max_size, density, torch.tensor(plan), torch.stack(slice_scores)


def model():
    torch.manual_seed(77)
    return StoneSizer().eval()


def _scan(s, h, w, stones, seed, slice_mm=2.5, pixel_mm=0.7, hot_pixels=()):
    """`stones`: (first slice, last slice, cy, cx, radius px, HU)."""
    g = torch.Generator().manual_seed(seed)
    ct = 40.0 + 10.0 * torch.randn(s, h, w, generator=g)
    yy, xx = torch.meshgrid(torch.arange(h, dtype=torch.float32), torch.arange(w, dtype=torch.float32), indexing="ij")
    for z0, z1, cy, cx, r, hu in stones:
        disc = ((yy - cy) ** 2 + (xx - cx) ** 2) <= r * r
        for z in range(z0, z1 + 1):
            ct[z] = torch.where(disc, hu + 30.0 * torch.randn(h, w, generator=g), ct[z])
    for z, y, x in hot_pixels:
        ct[z, y, x] = 450.0
    return ct, torch.tensor([slice_mm, pixel_mm, pixel_mm])


def example_inputs():
    return _scan(6, 32, 32, [(1, 3, 12.0, 14.0, 4.0, 850.0)], 1, hot_pixels=[(4, 25, 5)])


def dynamic_shapes():
    s = torch.export.Dim("slices", min=2, max=24)
    h = torch.export.Dim("rows", min=16, max=64)
    w = torch.export.Dim("cols", min=16, max=64)
    return ({0: s, 1: h, 2: w}, None)


def verify_inputs():
    return [
        example_inputs(),
        # ^ one 850 HU stone over 3 slices (7.5 mm, linked: for-loop break) + a lone hot voxel (continue) -> SWL
        _scan(24, 64, 64, [(2, 4, 20.0, 20.0, 3.0, 1200.0), (10, 14, 45.0, 40.0, 6.0, 700.0),
                           (10, 11, 20.0, 50.0, 2.0, 900.0), (10, 10, 50.0, 12.0, 2.0, 600.0),
                           (10, 10, 8.0, 8.0, 1.5, 650.0)], 2),
        # ^ max size: four regions on slice 10 -> the per-slice cap of 3 ends the while loop;
        #   largest 12.5 mm at 700 HU -> ureteroscopy (size test fails first)
        _scan(2, 16, 16, [], 3),                                      # min size, no stones -> observe (early return)
        _scan(3, 16, 64, [(0, 2, 8.0, 30.0, 1.5, 500.0)], 4, slice_mm=1.0),
        # ^ thin slices, 3 mm stone -> observe
        _scan(10, 64, 16, [(3, 5, 30.0, 8.0, 5.0, 1400.0)], 5),      # dense 7.5 mm stone -> ureteroscopy (HU >= 1000)
        _scan(8, 48, 48, [(2, 7, 24.0, 24.0, 16.0, 1100.0), (6, 7, 5.0, 40.0, 2.0, 700.0)], 6),
        # ^ 22 mm staghorn on slice 2 -> urgent, breaks out of both loops -> PCNL
        _scan(9, 32, 32, [(1, 1, 16.0, 16.0, 3.0, 700.0), (3, 5, 16.0, 16.0, 3.0, 700.0)], 7),
        # ^ 9 slices -> max_gap 1, so the stone reappearing after a skipped slice counts as a second one; SWL
    ]
