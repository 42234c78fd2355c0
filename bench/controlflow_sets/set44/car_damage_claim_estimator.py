"""Insurance photo-claim estimator: tile a car photo, score dents per tile, flag total loss.

Kind T. Constructs: 1, 2, 5, 6.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class TileCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(8, 8, 3, stride=2, padding=1), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 1))

    def forward(self, tile):
        return torch.sigmoid(self.conv(tile.unsqueeze(0)))[0, 0]


class DamageEstimator(nn.Module):
    def __init__(self, tile=32):
        super().__init__()
        self.tile = tile
        self.cnn = TileCNN()

    def forward(self, img, dmg_mask):
        # img: (3, H, W) in 0..1; dmg_mask: (H, W) damage probability from the upstream segmenter
        scores = []
        sev = []
        for i in range(img.shape[1] // self.tile):
            for j in range(img.shape[2] // self.tile):
                tile = img[:, i * self.tile:(i + 1) * self.tile, j * self.tile:(j + 1) * self.tile]
                if tile.mean() < 0.05:
                    # black tile (outside the car / night shot): skip
                    continue
                m = dmg_mask[i * self.tile:(i + 1) * self.tile, j * self.tile:(j + 1) * self.tile].mean()
                sev.append(m)
                scores.append(self.cnn(tile) * m)
        if not scores:
            return torch.zeros(()), torch.zeros(())
        s = torch.stack(scores)
        if (torch.stack(sev) > 0.9).any():
            total_loss = torch.ones(())
            cost = s.sum() * 10.0
        else:
            total_loss = torch.zeros(())
            cost = s.sum()
        return cost, total_loss


def model():
    torch.manual_seed(108)
    return DamageEstimator().eval()


def _photo(h, w, dark_tiles, sev_val, seed):
    g = torch.Generator().manual_seed(seed)
    img = 0.3 + 0.4 * torch.rand(3, h, w, generator=g)
    for (i, j) in dark_tiles:
        img[:, i * 32:(i + 1) * 32, j * 32:(j + 1) * 32] = 0.01
    mask = torch.full((h, w), sev_val)
    return img, mask


def example_inputs():
    return _photo(64, 96, [(0, 0)], 0.4, 1)


def dynamic_shapes():
    h = Dim("height", min=32, max=160)
    w = Dim("width", min=32, max=160)
    return ({1: h, 2: w}, {0: h, 1: w})


def verify_inputs():
    dark = [(i, j) for i in range(2) for j in range(2)]
    return [
        example_inputs(),                     # one dark tile skipped, minor damage
        _photo(128, 128, [], 0.95, 2),        # no skips, total loss
        _photo(64, 80, dark, 0.5, 3),         # all tiles dark (W not a tile multiple) -> early return
        _photo(32, 32, [], 0.5, 4),           # single tile, minor damage
    ]
