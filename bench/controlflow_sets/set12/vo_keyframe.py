"""Visual-odometry keyframe selector.

Each frame is summarised by a feature vector (e.g. pooled descriptor statistics) and a
sharpness score. Blurry frames are skipped; a frame becomes a keyframe when its embedding
moved far enough from the last keyframe (parallax proxy) or too many frames went by.
Output length (number of keyframes) is data dependent.
"""
import torch
from torch import nn


class KeyframeSelector(nn.Module):
    def __init__(self, feat_dim=24, emb_dim=16):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(feat_dim, 32), nn.ReLU(), nn.Linear(32, emb_dim))
        self.min_parallax = 1.5
        self.min_sharpness = 0.3
        self.max_gap = 5
        self.normalize = True

    def forward(self, frames: torch.Tensor, sharpness: torch.Tensor):
        emb = self.enc(frames)
        if self.normalize:  # static
            emb = emb / emb.norm(dim=-1, keepdim=True).clamp_min(1e-6) * 4.0
        last = emb[0]
        last_t = torch.zeros((), dtype=torch.long)
        keys = [emb[0]]
        idx = [last_t]
        for t in range(1, frames.shape[0]):
            if sharpness[t] < self.min_sharpness:
                continue
            parallax = (emb[t] - last).norm()
            gap = t - last_t
            if parallax > self.min_parallax or gap >= self.max_gap:
                last = emb[t]
                last_t = torch.full((), t, dtype=torch.long)
                keys.append(emb[t])
                idx.append(last_t)
        return torch.stack(idx), torch.stack(keys)


def model():
    torch.manual_seed(0)
    return KeyframeSelector().eval()


def _inputs(seed, T, step, blur_every=0):
    g = torch.Generator().manual_seed(seed)
    base = torch.randn(1, 24, generator=g)
    drift = torch.randn(T, 24, generator=g) * step
    frames = base + torch.cumsum(drift, dim=0)
    sharp = torch.rand(T, generator=g) * 0.5 + 0.45
    if blur_every:
        sharp = torch.where(torch.arange(T) % blur_every == 1, torch.full_like(sharp, 0.1), sharp)
    return frames, sharp


def example_inputs():
    return _inputs(0, 12, 0.6, blur_every=3)


def dynamic_shapes():
    T = torch.export.Dim("T", min=2, max=64)
    return ({0: T}, {0: T})


def verify_inputs():
    return [
        _inputs(1, 2, 0.05),            # one step, not a keyframe
        _inputs(2, 20, 0.02),           # slow drift: only max_gap keyframes
        _inputs(3, 30, 1.0, blur_every=4),  # fast motion with blurry frames
        _inputs(4, 7, 0.8),
    ]
