"""Seed germination tray scorer for a phenotyping camera: scans the tray cell by
cell, counts germinated and mouldy cells, quarantines mouldy rows, learned vigour
score on a thumbnail.

Constructs: 1, 3 (`and not` / `or`), 5 (nested for over H // 16 and W // 16
with H, W dynamic, append + stack), 6 (continue on empty cells, break on a
mouldy row), 8 (thumbnail resize only for large images).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class GerminationScorer(nn.Module):
    def __init__(self, cell=16):
        super().__init__()
        self.cell = cell
        self.cnn = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.vigour = nn.Linear(8, 1)

    def forward(self, img):
        # img: [1, 3, H, W] RGB in [0, 1]
        c = self.cell
        row_rates, mould_rows = [], []
        for r in range(img.shape[2] // c):
            germ = torch.zeros(())
            seeded = torch.zeros(())
            mould = torch.zeros(())
            for q in range(img.shape[3] // c):
                cell = img[0, :, r * c:(r + 1) * c, q * c:(q + 1) * c]
                if cell.mean() < 0.05:
                    continue  # empty well
                seeded = seeded + 1
                green = ((cell[1] - cell[0]) > 0.2).float().mean()
                white = (cell.min(0).values > 0.8).float().mean()
                if green > 0.3 and not white > 0.5:
                    germ = germ + 1
                elif white > 0.5 or cell[0].mean() > 0.9:
                    mould = mould + 1
                    if mould >= 2:
                        break  # quarantine the rest of this row
            row_rates.append(germ / seeded.clamp(min=1.0))
            mould_rows.append((mould >= 2).float())
        if img.shape[2] * img.shape[3] > 64 * 64:
            thumb = F.interpolate(img, size=(64, 64), mode="bilinear", align_corners=False)
        else:
            thumb = img
        vig = torch.sigmoid(self.vigour(self.cnn(thumb).flatten(1))).view(1)
        return torch.stack(row_rates), torch.stack(mould_rows), vig


def model():
    torch.manual_seed(19)
    return GerminationScorer().eval()


SOIL = (0.35, 0.25, 0.15)
SPROUT = (0.2, 0.7, 0.2)
MOULD = (0.95, 0.95, 0.95)


def _tray(layout, seed=0):
    """layout: list of strings, one char per 16x16 cell: . empty, s soil, g sprout, m mould, r red-rot."""
    g = torch.Generator().manual_seed(seed)
    H, W = 16 * len(layout), 16 * len(layout[0])
    img = 0.02 * torch.rand(1, 3, H, W, generator=g)
    for r, line in enumerate(layout):
        for q, ch in enumerate(line):
            if ch == ".":
                continue
            block = torch.tensor(SOIL).view(3, 1, 1).expand(3, 16, 16).clone()
            if ch == "g":
                block[:, 4:12, :] = torch.tensor(SPROUT).view(3, 1, 1)
            elif ch == "m":
                block[:, 2:14, :] = torch.tensor(MOULD).view(3, 1, 1)
            elif ch == "r":
                block[0] = 0.97
            img[0, :, r * 16:(r + 1) * 16, q * 16:(q + 1) * 16] = block
    return img


def example_inputs():
    return (_tray(["gs.g", "mgmg", "s.gs"]),)


def dynamic_shapes():
    return ({2: torch.export.Dim("H", min=16, max=128), 3: torch.export.Dim("W", min=16, max=128)},)


def verify_inputs():
    return [
        example_inputs(),                          # germinated, soil, empty, mould row break, small image
        (_tray(["g"]),),                           # min size single cell
        (_tray(["gggggggg"] * 2 + ["rrsgmsgg"] * 3 + ["........"] * 3, 1),),  # max size: thumbnail, red-rot mould (`or`), breaks
        (_tray(["gmg.sg", "ssssss", "gggggg", "m.....", "gsgsgs"], 2),),       # 80x96 > 64*64: thumbnail, one mould (no break)
    ]
