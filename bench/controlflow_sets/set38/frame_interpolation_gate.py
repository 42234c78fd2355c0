"""Slow-motion video: decide how many in-between frames to synthesise from the amount of
motion between two frames, then generate them with a small refinement CNN.

Kind T. Constructs: 1 2 5 7 8
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class InBetweener(nn.Module):
    def __init__(self):
        super().__init__()
        self.refine = nn.Sequential(
            nn.Conv2d(7, 16, 3, padding=1), nn.ReLU(),
            nn.Conv2d(16, 3, 3, padding=1),
        )
        # fraction of moving pixels above which one more in-between frame is added
        self.register_buffer("levels", torch.tensor([0.01, 0.05, 0.15, 0.30]))
        self.pixel_thresh = 0.1

    def motion_fraction(self, a, b):
        diff = (a - b).abs().mean(0)
        if diff.shape[-1] * diff.shape[-2] > 64 * 64:
            # large frames: estimate motion at half resolution
            diff = F.avg_pool2d(diff[None, None], 2)[0, 0]
        return (diff > self.pixel_thresh).float().mean()

    def forward(self, f0, f1):
        moving = self.motion_fraction(f0, f1)
        if moving < self.levels[0]:
            # static shot: nothing to interpolate
            return torch.stack([f0, f1])
        n_mid = int((moving > self.levels).sum())
        frames = [f0]
        for k in range(n_mid):
            t = (k + 1) / (n_mid + 1)
            blend = (1 - t) * f0 + t * f1
            t_map = torch.full_like(f0[:1], t)
            residual = self.refine(torch.cat([f0, f1, t_map], 0)[None])[0]
            frames.append((blend + 0.1 * torch.tanh(residual)).clamp(0, 1))
        frames.append(f1)
        return torch.stack(frames)


def model():
    torch.manual_seed(4)
    return InBetweener().eval()


def _make_pair(h, w, box, seed):
    """Textured background identical in both frames; a bright box of side `box` moves by `box` pixels."""
    g = torch.Generator().manual_seed(seed)
    bg = 0.2 + 0.1 * torch.rand(3, h, w, generator=g)
    f0, f1 = bg.clone(), bg.clone()
    if box > 0:
        f0[:, 0:box, 0:box] = 0.9
        f1[:, 0:box, box:2 * box] = 0.9
    return f0, f1


def example_inputs():
    return _make_pair(48, 48, 8, 0)


def dynamic_shapes():
    h = torch.export.Dim("height", min=16, max=128)
    w = torch.export.Dim("width", min=16, max=128)
    return ({1: h, 2: w}, {1: h, 2: w})


def verify_inputs():
    return [
        example_inputs(),           # 128/2304 = 5.6% moving -> 2 in-between frames (loop many)
        _make_pair(32, 40, 0, 1),   # identical frames: early return
        _make_pair(80, 96, 10, 2),  # 7680 px > 4096 -> pooled; 200/7680 = 2.6% moving -> 1 in-between (loop once)
        _make_pair(64, 64, 16, 3),  # 4096 px, not pooled; 512/4096 = 12.5% -> 2
        _make_pair(24, 32, 12, 4),  # 288/768 = 37.5% -> 4 in-between frames
    ]
