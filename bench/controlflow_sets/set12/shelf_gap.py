"""Retail shelf gap (out-of-stock) detector.

A shelf photo (1, 3, 96, W) holds three shelf rows of 32 px; W is dynamic. A small conv
backbone (stride 4) gives features; per shelf row, columns whose features show no texture
are 'empty'. A run-length scan over the columns reports gaps at least `min_width` columns
wide as (shelf, start_col, end_col) rows; the number of gaps is data dependent.
"""
import torch
from torch import nn

SHELVES = 3


class ShelfGapDetector(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(16, 16, 3, stride=2, padding=1), nn.ReLU(),
        )
        self.min_width = 3
        self.empty_thr = 0.5
        self.texture_scale = 0.05

    def column_emptiness(self, feat):
        # feat: (C, h, w) for one shelf row -> (w,) emptiness in [0, 1]
        energy = feat.std(dim=1).mean(dim=0)
        return 1.0 - torch.tanh(energy / self.texture_scale)

    def forward(self, img: torch.Tensor):
        feat = self.backbone(img)[0]                  # (16, 24, W/4)
        rows_per_shelf = feat.shape[1] // SHELVES
        gaps = []
        for s in range(SHELVES):
            empty = self.column_emptiness(feat[:, s * rows_per_shelf:(s + 1) * rows_per_shelf]) > self.empty_thr
            run = 0
            start = 0
            for c in range(empty.shape[0]):
                if empty[c]:
                    if run == 0:
                        start = c
                    run += 1
                    continue
                if run >= self.min_width:
                    gaps.append(torch.tensor([s, start, c]))
                run = 0
            if run >= self.min_width:
                gaps.append(torch.tensor([s, start, empty.shape[0]]))
        if len(gaps) == 0:
            return torch.zeros(0, 3, dtype=torch.long)
        return torch.stack(gaps) * torch.tensor([1, 4, 4])


def model():
    torch.manual_seed(9)
    return ShelfGapDetector().eval()


def _shelf(seed, W, holes):
    g = torch.Generator().manual_seed(seed)
    img = torch.rand(1, 3, 96, W, generator=g)
    for s, x0, x1 in holes:
        img[:, :, s * 32:(s + 1) * 32, x0:x1] = 0.2
    return (img,)


def example_inputs():
    return _shelf(0, 128, [(0, 40, 80), (2, 8, 12)])


def dynamic_shapes():
    return ({3: torch.export.Dim("W", min=32, max=1024)},)


def verify_inputs():
    return [_shelf(1, 64, []), _shelf(2, 200, [(1, 150, 200), (2, 0, 60), (0, 100, 140)]),
            _shelf(3, 32, [(1, 0, 32)])]
