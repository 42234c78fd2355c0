"""Pose-estimation heatmap decoder (HRNet/SimpleBaseline `get_final_preds` style) with quarter-pixel refinement."""

import torch
from torch import nn

NUM_JOINTS = 4


class HeatmapRefiner(nn.Module):
    """A light residual conv on top of backbone heatmaps, as in the last stage of a pose net."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(NUM_JOINTS, NUM_JOINTS, 3, padding=1)
        nn.init.normal_(self.conv.weight, std=0.01)
        nn.init.zeros_(self.conv.bias)

    def forward(self, x):
        return x + self.conv(x)


def get_max_preds(heatmaps):
    """heatmaps (K, H, W) -> coords (K, 2) as (x, y) and maxvals (K,)."""
    k, h, w = heatmaps.shape
    flat = heatmaps.reshape(k, -1)
    maxvals, idx = flat.max(dim=1)
    coords = torch.stack([idx % w, idx // w], dim=1).float()
    coords = coords * (maxvals > 0).float().unsqueeze(1)
    return coords, maxvals


class PoseDecoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.refiner = HeatmapRefiner()

    def forward(self, heatmaps):  # (1, K, H, W)
        hm = self.refiner(heatmaps)[0]
        coords, maxvals = get_max_preds(hm)
        h, w = hm.shape[1], hm.shape[2]
        refined = []
        for j in range(NUM_JOINTS):
            px = int(coords[j, 0].item() + 0.5)
            py = int(coords[j, 1].item() + 0.5)
            c = coords[j]
            if 1 < px < w - 1 and 1 < py < h - 1:
                diff = torch.stack(
                    [hm[j, py, px + 1] - hm[j, py, px - 1], hm[j, py + 1, px] - hm[j, py - 1, px]]
                )
                c = c + torch.sign(diff) * 0.25
            refined.append(c)
        return torch.stack(refined) * 4.0, maxvals


def model():
    torch.manual_seed(0)
    return PoseDecoder().eval()


def _heatmaps(peaks, h, w, seed):
    """Gaussian blobs at the given (x, y) peaks (None: a joint with no positive response)."""
    g = torch.Generator().manual_seed(seed)
    ys = torch.arange(h).float()[:, None]
    xs = torch.arange(w).float()[None, :]
    maps = []
    for p in peaks:
        if p is None:
            maps.append(-torch.rand(h, w, generator=g) - 0.1)
        else:
            x0, y0 = p
            maps.append(
                torch.exp(-((xs - x0) ** 2 + (ys - y0) ** 2) / 4.0) + 0.01 * torch.rand(h, w, generator=g)
            )
    return (torch.stack(maps).unsqueeze(0),)


def example_inputs():
    return _heatmaps([(10.3, 12.6), (20.7, 5.2), (3.4, 30.1), (15.0, 15.0)], 32, 24, 0)


def dynamic_shapes():
    return ({2: torch.export.Dim("h", min=4, max=96), 3: torch.export.Dim("w", min=4, max=96)},)


def verify_inputs():
    return [
        # interior peaks: refinement taken for every joint
        _heatmaps([(5.4, 6.6), (30.2, 40.7), (12.0, 50.3), (60.6, 70.2)], 96, 72, 1),
        # joints on the border (x = 0, y = h-1, x = w-1) and one with no response: refinement skipped
        _heatmaps([(0.0, 10.0), (8.0, 15.0), (11.0, 3.0), None], 16, 12, 2),
        # a tiny 4x4 map: only the joint at (2, 2) is interior
        _heatmaps([(1.0, 1.0), (2.0, 2.0), (0.0, 3.0), (3.0, 0.0)], 4, 4, 3),
        # mixed
        _heatmaps([(1.0, 20.0), (30.5, 1.2), (44.6, 20.4), (2.2, 2.7)], 40, 48, 4),
    ]
