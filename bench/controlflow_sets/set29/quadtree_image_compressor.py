"""Quadtree compression of a grayscale image.

Blocks are split into four quadrants while their intensity variance is above a threshold
(and they are at least 2 pixels on each side); homogeneous blocks become leaves storing their
mean.  Large images are first downsampled.  Returns the leaf table (y, x, h, w, mean) and
the reconstructed image.
"""
import torch
import torch.nn.functional as F
from torch import nn


class QuadtreeImageCompressor(nn.Module):
    def __init__(self, var_thr=0.004, max_side=32):
        super().__init__()
        self.var_thr = var_thr
        self.max_side = max_side
        self.gamma = nn.Parameter(torch.tensor(0.9))

    def forward(self, img):
        # img: [H, W] in [0, 1]
        if img.shape[0] > self.max_side or img.shape[1] > self.max_side:
            img = F.avg_pool2d(img[None, None], 2, ceil_mode=True)[0, 0]
        img = img.clamp(min=1e-4) ** self.gamma
        H, W = img.shape
        recon = torch.zeros_like(img)
        leaves = []
        stack = [(0, 0, H, W)]
        while stack:
            y, x, h, w = stack.pop()
            block = img[y:y + h, x:x + w]
            if h < 2 or w < 2 or block.var() < self.var_thr:
                mean = block.mean()
                recon[y:y + h, x:x + w] = mean
                leaves.append(torch.stack([torch.tensor(float(y)), torch.tensor(float(x)),
                                           torch.tensor(float(h)), torch.tensor(float(w)), mean]))
                continue
            hh, hw = h // 2, w // 2
            for dy in (0, hh):
                for dx in (0, hw):
                    ch = hh if dy == 0 else h - hh
                    cw = hw if dx == 0 else w - hw
                    stack.append((y + dy, x + dx, ch, cw))
        return torch.stack(leaves), recon


def model():
    torch.manual_seed(0)
    return QuadtreeImageCompressor().eval()


def _make(h, w, rects, seed, noise=0.01):
    """rects: list of (y0, y1, x0, x1, value) painted on a 0.2 background."""
    g = torch.Generator().manual_seed(seed)
    img = torch.full((h, w), 0.2)
    for (y0, y1, x0, x1, v) in rects:
        img[y0:y1, x0:x1] = v
    return (img + noise * torch.rand(h, w, generator=g),)


def example_inputs():
    return _make(16, 16, [(0, 8, 8, 16, 0.8), (10, 13, 2, 5, 0.6)], 0)


def dynamic_shapes():
    return ({0: torch.export.Dim("h", min=4, max=64), 1: torch.export.Dim("w", min=4, max=64)},)


def verify_inputs():
    return [
        _make(12, 10, [], 1),                                        # flat: a single leaf
        _make(8, 8, [(0, 4, 0, 4, 0.9)], 2),                         # one split
        _make(13, 11, [(3, 6, 2, 9, 0.7), (9, 13, 0, 3, 0.95)], 3),  # odd sizes, deep splits
        _make(48, 40, [(0, 20, 0, 20, 0.7), (30, 48, 24, 40, 0.5)], 4),  # large: downsampled first
        _make(6, 40, [(0, 6, 17, 19, 0.9)], 5),                      # thin strips (w < 2 leaves)
        example_inputs(),
    ]
