"""Coarse-to-fine optical flow (PWC-style, tiny) for frame interpolation on edge devices.

The image pyramid depth depends on the (dynamic) input resolution; each level refines
the upsampled flow with its own estimator from an nn.ModuleList. A large-motion guard
rescales the final flow when its magnitude exceeds the supported displacement.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim


def warp(feat, flow):
    """Backward-warp feat (N,C,H,W) by flow (N,2,H,W) in pixels."""
    n, _, h, w = feat.shape
    ys = torch.linspace(-1.0, 1.0, h).view(1, h, 1).expand(n, h, w)
    xs = torch.linspace(-1.0, 1.0, w).view(1, 1, w).expand(n, h, w)
    gx = xs + flow[:, 0] * (2.0 / max(w - 1, 1))
    gy = ys + flow[:, 1] * (2.0 / max(h - 1, 1))
    grid = torch.stack([gx, gy], dim=-1)
    return F.grid_sample(feat, grid, mode="bilinear", padding_mode="border", align_corners=True)


class Estimator(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(2 * c + 2, 24, 3, padding=1),
            nn.LeakyReLU(0.1),
            nn.Conv2d(24, 16, 3, padding=1),
            nn.LeakyReLU(0.1),
            nn.Conv2d(16, 2, 3, padding=1),
        )

    def forward(self, f1, f2w, flow):
        return flow + self.net(torch.cat([f1, f2w, flow], dim=1))


class FlowPyramid(nn.Module):
    def __init__(self, max_levels=4, min_size=16, max_disp=6.0):
        super().__init__()
        self.max_levels = max_levels
        self.min_size = min_size
        self.max_disp = max_disp
        self.flow_scale = 20.0
        self.encoder = nn.Sequential(
            nn.Conv2d(3, 12, 3, padding=1), nn.ReLU(), nn.Conv2d(12, 12, 3, padding=1)
        )
        self.estimators = nn.ModuleList([Estimator(12) for _ in range(max_levels)])

    def forward(self, img1, img2):
        f1, f2 = self.encoder(img1), self.encoder(img2)
        pyr = [(f1, f2)]
        # build the pyramid while both sides stay above the minimum size
        while (
            f1.shape[-1] >= 2 * self.min_size
            and f1.shape[-2] >= 2 * self.min_size
            and len(pyr) < self.max_levels
        ):
            f1 = F.avg_pool2d(f1, 2)
            f2 = F.avg_pool2d(f2, 2)
            pyr.append((f1, f2))
        flow = torch.zeros(f1.shape[0], 2, f1.shape[2], f1.shape[3])
        for lvl in range(len(pyr) - 1, -1, -1):
            a, b = pyr[lvl]
            if flow.shape[-2:] != a.shape[-2:]:
                flow = 2.0 * F.interpolate(flow, size=a.shape[-2:], mode="bilinear", align_corners=False)
            flow = self.estimators[lvl](a, warp(b, flow), flow)
        flow = flow * self.flow_scale  # network predicts flow / flow_scale (PWC convention)
        peak = flow.abs().amax()
        if peak > self.max_disp:
            flow = flow * (self.max_disp / peak)
        return flow


def model():
    torch.manual_seed(0)
    return FlowPyramid().eval()


def example_inputs():
    g = torch.Generator().manual_seed(1)
    return (torch.rand(1, 3, 64, 80, generator=g), torch.rand(1, 3, 64, 80, generator=g))


def dynamic_shapes():
    h, w = Dim("h", min=16, max=160), Dim("w", min=16, max=160)
    return {"img1": {2: h, 3: w}, "img2": {2: h, 3: w}}


def verify_inputs():
    g = torch.Generator().manual_seed(2)
    small = (torch.rand(1, 3, 20, 24, generator=g), torch.rand(1, 3, 20, 24, generator=g))
    big = (torch.rand(1, 3, 128, 144, generator=g), torch.rand(1, 3, 128, 144, generator=g))
    bright = (4.0 * torch.rand(1, 3, 48, 40, generator=g), 4.0 * torch.rand(1, 3, 48, 40, generator=g))
    return [small, big, bright]
