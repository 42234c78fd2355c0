"""Pharmacy pill counter: a backlit tray image (variable size) is segmented, connected
components are labelled by iterative max-label propagation until nothing changes, dust
specks are dropped, and touching pills (a blob much larger than the median pill) are
counted twice. Returns the count and the per-blob areas (data-dependent size)."""

import torch
from torch import nn
import torch.nn.functional as F

MIN_AREA = 4
TOUCHING = 1.6


class PillCounter(nn.Module):
    def __init__(self):
        super().__init__()
        self.refine = nn.Conv2d(1, 1, 3, padding=1)

    def label(self, mask: torch.Tensor) -> torch.Tensor:
        Hd, Wd = mask.shape
        lab = (torch.arange(Hd * Wd).reshape(Hd, Wd) + 1) * mask.long()
        changed = torch.tensor(True)
        while changed:
            grown = F.max_pool2d(lab.float()[None, None], 3, stride=1, padding=1)[0, 0].long()
            new = grown * mask.long()
            changed = (new != lab).any()
            lab = new
        return lab

    def forward(self, img: torch.Tensor):
        # img: (1, 1, H, W) transmitted light: pills dark-on-bright are inverted upstream
        prob = torch.sigmoid(8.0 * (img - 0.5) + 0.05 * self.refine(img))[0, 0]
        lab = self.label(prob > 0.5)
        ids = torch.unique(lab)
        ids = ids[ids > 0]
        areas = []
        for n in range(ids.shape[0]):
            area = (lab == ids[n]).sum()
            if area < MIN_AREA:
                continue  # dust
            areas.append(area)
        if len(areas) == 0:
            return torch.zeros((), dtype=torch.long), torch.zeros(0, dtype=torch.long)
        areas_t = torch.stack(areas)
        median = areas_t.float().median()
        count = torch.zeros((), dtype=torch.long)
        for a in areas:
            if a > TOUCHING * median:
                count = count + 2
            else:
                count = count + 1
        return count, areas_t


def model() -> nn.Module:
    torch.manual_seed(0)
    return PillCounter().eval()


def _tray(Hd, Wd, pills, seed, specks=()):
    """pills: (row, col, h, w) rectangles."""
    g = torch.Generator().manual_seed(seed)
    img = 0.1 + 0.05 * torch.rand(1, 1, Hd, Wd, generator=g)
    for r, c, h, w in pills:
        img[0, 0, r:r + h, c:c + w] = 0.85 + 0.1 * torch.rand(h, w, generator=g)
    for r, c in specks:
        img[0, 0, r, c] = 0.9
    return (img,)


def example_inputs() -> tuple:
    return _tray(24, 24, [(2, 2, 3, 4), (10, 10, 3, 4), (16, 3, 4, 3)], 0)


def dynamic_shapes():
    return ({2: torch.export.Dim("h", min=16, max=64), 3: torch.export.Dim("w", min=16, max=64)},)


def verify_inputs() -> list:
    return [
        _tray(16, 20, [], 1),                                                  # empty tray
        _tray(40, 48, [(2, 2, 3, 4), (2, 6, 3, 4), (20, 20, 3, 4), (30, 5, 4, 3)], 2,
              specks=[(15, 40), (35, 30)]),                                    # touching pair + dust
        _tray(16, 16, [], 3, specks=[(8, 8)]),                                 # dust only
        _tray(64, 64, [(r, c, 3, 4) for r in range(2, 60, 9) for c in range(2, 60, 11)], 4),
    ]
