"""Palette reduction for a GIF encoder: k-means colour quantisation.

Pixels are clustered around a fixed starting palette (Lloyd iterations).  A
palette colour that no pixel uses keeps its previous value; iterations stop
when no palette colour moves more than tol.  Images with at most k pixels are
returned unchanged with one palette entry per pixel.  Returns the quantised
pixels and the palette.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class KMeansQuantizer(nn.Module):
    def __init__(self):
        super().__init__()
        self.k = 4
        self.max_iter = 5
        self.tol = 0.01
        self.register_buffer("palette", torch.tensor([
            [0.1, 0.1, 0.1], [0.9, 0.2, 0.2], [0.2, 0.8, 0.3], [0.2, 0.3, 0.9]]))

    def forward(self, pixels):
        if pixels.shape[0] <= self.k:
            return pixels, pixels
        centers = self.palette
        assign = torch.cdist(pixels, centers).argmin(dim=1)
        for it in range(self.max_iter):
            new_centers = []
            for c in range(self.k):
                members = assign == c
                if not members.any():
                    new_centers.append(centers[c])  # unused colour stays where it was
                    continue
                new_centers.append(pixels[members].mean(dim=0))
            new_centers = torch.stack(new_centers)
            shift = (new_centers - centers).norm(dim=1).max()
            centers = new_centers
            assign = torch.cdist(pixels, centers).argmin(dim=1)
            if shift < self.tol:
                break
        return centers[assign], centers


def model():
    torch.manual_seed(0)
    return KMeansQuantizer().eval()


def _make(seed, n, colors, noise=0.05):
    g = torch.Generator().manual_seed(seed)
    colors = torch.tensor(colors)
    idx = torch.randint(0, colors.shape[0], (n,), generator=g)
    return ((colors[idx] + noise * torch.randn(n, 3, generator=g)).clamp(0.0, 1.0),)


def example_inputs():
    return _make(0, 40, [[0.8, 0.3, 0.2], [0.3, 0.7, 0.4], [0.1, 0.2, 0.6]])


def dynamic_shapes():
    return ({0: Dim("pixels", min=2, max=4096)},)


def verify_inputs():
    mix = [[0.8, 0.3, 0.2], [0.3, 0.7, 0.4], [0.1, 0.2, 0.6], [0.15, 0.1, 0.1]]
    yellows = [[0.6, 0.6, 0.1], [0.7, 0.5, 0.2], [0.05, 0.05, 0.3]]
    gradient = [[i / 7, 0.5, 1 - i / 7] for i in range(8)]
    return [
        _make(1, 80, mix, noise=0.1),                                   # every palette colour used
        _make(2, 3, [[0.5, 0.5, 0.5]]),                                 # tiny sprite: unchanged
        _make(0, 30, [[0.9, 0.2, 0.2], [0.1, 0.1, 0.1]], noise=0.004),  # palette already fits
        _make(0, 80, gradient, noise=0.05),                             # smooth gradient: no convergence
        _make(2, 80, yellows, noise=0.05),                              # slow convergence
        _make(5, 4, [[0.2, 0.4, 0.6]]),                                 # exactly k pixels
    ]
