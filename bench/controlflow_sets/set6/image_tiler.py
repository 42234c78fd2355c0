"""Tile-based feature extractor for tall document strips: loops over the number of full tiles
(derived from a dynamic height), stacks per-tile features, and handles a leftover partial tile
with a branch on the remainder size."""

import torch
import torch.nn.functional as F
from torch import nn

TILE = 32


class TileEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 16, 3, padding=1))

    def forward(self, strip: torch.Tensor) -> tuple:
        # strip: [1, 1, H, 32]
        height = strip.shape[2]
        n_full = height // TILE
        rem = height - n_full * TILE
        feats = []
        for i in range(n_full):
            tile = strip[:, :, i * TILE : (i + 1) * TILE, :]
            feats.append(F.adaptive_avg_pool2d(self.enc(tile), 1).flatten(1))
        if rem > 0:
            tail = F.pad(strip[:, :, n_full * TILE :, :], (0, 0, 0, TILE - rem))
            extra = F.adaptive_avg_pool2d(self.enc(tail), 1).flatten(1)
        else:
            extra = torch.zeros(1, 16)
        feats.append(extra)
        return torch.cat(feats, dim=0), extra


def model() -> nn.Module:
    torch.manual_seed(0)
    return TileEncoder().eval()


def example_inputs() -> tuple:
    torch.manual_seed(1)
    return (torch.randn(1, 1, 100, TILE),)


def dynamic_shapes():
    return ({2: torch.export.Dim("height", min=8, max=1024)},)


def verify_inputs() -> list:
    g = torch.Generator().manual_seed(13)
    return [
        (torch.randn(1, 1, 20, TILE, generator=g),),  # zero full tiles, remainder only
        (torch.randn(1, 1, 64, TILE, generator=g),),  # two full tiles, no remainder
        (torch.randn(1, 1, 100, TILE, generator=g),),  # three full tiles + remainder
        (torch.randn(1, 1, 32, TILE, generator=g),),  # exactly one tile
    ]
