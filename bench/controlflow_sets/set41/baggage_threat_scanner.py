"""Two-stage threat scanner for dual-energy X-ray baggage images.

Channels: low-energy and high-energy attenuation images and an effective-Z
map, all in [0, 1] with 1 = nothing in the beam and dark = dense / high-Z.
The bag is cut into 64x64 tiles (after halving high-resolution scans). Empty
tiles are skipped; tiles with enough dense material go to a fine inspector
that checks the four quadrants for a compact very-high-Z core (score from a
CNN plus the core fraction). The first confirmed threat stops the scan and the
bag is diverted to manual search.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim


class FineInspector(nn.Module):
    def __init__(self, core_thr=0.05, trigger=0.6, size=64):
        super().__init__()
        half = size // 2
        self.half = half
        self.quadrants = [(0, 0), (0, half), (half, 0), (half, half)]
        self.core_thr = core_thr
        self.trigger = trigger
        self.cnn = nn.Sequential(
            nn.Conv2d(3, 8, 3, stride=2), nn.ReLU(), nn.Conv2d(8, 8, 3, stride=2), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(0), nn.Linear(8, 1))

    def forward(self, tile):
        best = tile.new_zeros(())
        for qi, (r, c) in enumerate(self.quadrants):
            q = tile[:, r:r + self.half, c:c + self.half]
            core = (q[2] < self.core_thr).to(tile.dtype).mean()
            score = 0.2 * torch.sigmoid(self.cnn(q.unsqueeze(0))).squeeze() + 0.8 * core
            if score > self.trigger:
                return score, torch.tensor(qi)  # confirmed: no need to look further
            best = torch.maximum(best, score)
        return best, torch.tensor(-1)


class BaggageThreatScanner(nn.Module):
    def __init__(self, tile=64, max_side=256, empty_level=0.95, dense_thr=0.1):
        super().__init__()
        self.tile = tile
        self.max_side = max_side
        self.empty_level = empty_level
        self.dense_thr = dense_thr
        self.fine = FineInspector(size=tile)

    def forward(self, image):
        if image.shape[1] > self.max_side or image.shape[2] > self.max_side:
            image = F.avg_pool2d(image.unsqueeze(0), 2).squeeze(0)  # high-resolution scanner mode
        ts = self.tile
        nh, nw = image.shape[1] // ts, image.shape[2] // ts
        heat = image.new_zeros((nh, nw))
        for i in range(nh):
            for j in range(nw):
                tile = image[:, i * ts:(i + 1) * ts, j * ts:(j + 1) * ts]
                if tile.mean() > self.empty_level:
                    continue  # no baggage in this tile
                dense = (tile[2] < 0.2).to(image.dtype).mean()
                heat[i, j] = dense
                if dense > self.dense_thr:
                    score, where = self.fine(tile)
                    heat[i, j] = score
                    if where >= 0:
                        return heat, torch.ones((), dtype=image.dtype), torch.tensor([i, j])
        return heat, torch.zeros((), dtype=image.dtype), torch.tensor([-1, -1])


def model():
    torch.manual_seed(67)
    return BaggageThreatScanner().eval()


def _bag(h, w, clutter=(), dense=(), core=(), seed=0):
    """Rectangles (r0, r1, c0, c1): clutter (organic), dense metal, very-high-Z core."""
    g = torch.Generator().manual_seed(seed)
    img = torch.ones(3, h, w)
    for r0, r1, c0, c1 in clutter:
        img[:, r0:r1, c0:c1] = 0.55 + 0.2 * torch.rand(3, r1 - r0, c1 - c0, generator=g)
    for r0, r1, c0, c1 in dense:
        img[:, r0:r1, c0:c1] = 0.3
        img[2, r0:r1, c0:c1] = 0.1
    for r0, r1, c0, c1 in core:
        img[:, r0:r1, c0:c1] = 0.15
        img[2, r0:r1, c0:c1] = 0.02
    return (img,)


def example_inputs():
    # 2x3 tiles: clutter, a laptop-like dense block (fine check, no core), empty tiles
    return _bag(128, 192, clutter=[(0, 128, 0, 96)], dense=[(10, 40, 70, 100), (70, 80, 10, 20)], seed=0)


def dynamic_shapes():
    return ({1: Dim("height", min=64, max=512), 2: Dim("width", min=64, max=512)},)


def verify_inputs():
    return [
        example_inputs(),    # empty tiles skipped, small trinket below dense_thr, dense block: 4 quadrants, no threat
        _bag(128, 192, clutter=[(0, 128, 0, 192)], dense=[(70, 126, 130, 190)], core=[(98, 126, 160, 190)], seed=1),
        # ^ threat core in the last quadrant of the last tile -> early return from both loops
        _bag(128, 128, clutter=[(0, 64, 0, 64)], core=[(2, 32, 2, 32)], seed=2),
        # ^ threat in the first quadrant of the first tile
        _bag(320, 384, clutter=[(0, 320, 0, 384)], dense=[(20, 80, 20, 80)], seed=3),
        # ^ high-res scan (halved), dense object, no threat
        _bag(64, 64, seed=4),                                     # minimum size, empty bag
        _bag(512, 512, clutter=[(0, 512, 0, 512)], dense=[(300, 380, 300, 380)], core=[(384, 448, 448, 510)], seed=5),
        # ^ maximum size (halved to 4x4 tiles), threat found late
        _bag(100, 130, clutter=[(0, 100, 0, 130)], seed=6),      # sizes not multiple of the tile, clutter only
    ]
