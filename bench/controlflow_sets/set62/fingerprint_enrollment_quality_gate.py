"""Fingerprint enrollment: capture quality gate + template embedding.

A sensor capture is rejected outright when it is blank or washed out, large
captures are resampled to the network's working resolution, ridge-orientation
coherence (a classic NFIQ-style quality cue) is measured from Sobel gradients,
and the template embedding is only released when the capture is coherent.

Kind: T.  Constructs: 1, 2, 3, 8.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim


class FingerprintQualityGate(nn.Module):
    def __init__(self, emb_dim=32, work_size=96, min_coherence=0.35):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(),
            nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(16, 16, 3, stride=2, padding=1), nn.ReLU(),
        )
        self.embed = nn.Linear(16, emb_dim)
        sobel_x = torch.tensor([[-1.0, 0.0, 1.0], [-2.0, 0.0, 2.0], [-1.0, 0.0, 1.0]])
        self.register_buffer("sobel", torch.stack([sobel_x, sobel_x.t()]).unsqueeze(1))
        self.emb_dim = emb_dim
        self.work_size = work_size
        self.min_coherence = min_coherence

    def forward(self, img):
        # img: [1, 1, H, W] grey levels in [0, 1]
        contrast = img.std()
        brightness = img.mean()
        if contrast < 0.05 or brightness > 0.9:
            # finger not on the sensor, or over-pressed / wet finger
            return torch.zeros(1, self.emb_dim), torch.zeros(1)

        if img.shape[-1] > self.work_size or img.shape[-2] > self.work_size:
            img = F.interpolate(img, size=(self.work_size, self.work_size), mode="bilinear",
                                align_corners=False)

        x = (img - brightness) / contrast
        g = F.conv2d(x, self.sobel, padding=1)
        gx, gy = g[:, 0], g[:, 1]
        gxx = (gx * gx).mean()
        gyy = (gy * gy).mean()
        gxy = (gx * gy).mean()
        coherence = torch.sqrt((gxx - gyy) ** 2 + 4 * gxy ** 2) / (gxx + gyy + 1e-6)

        f = self.features(x).mean(dim=(2, 3))
        emb = F.normalize(self.embed(f), dim=1)
        if not coherence > self.min_coherence:
            # smudged / noisy capture: ask the user to re-place the finger
            emb = torch.zeros_like(emb)
        return emb, coherence.reshape(1)


def model():
    torch.manual_seed(621)
    return FingerprintQualityGate().eval()


def _ridges(h, w, period=7.0, angle=0.6):
    yy, xx = torch.meshgrid(torch.arange(h, dtype=torch.float32),
                            torch.arange(w, dtype=torch.float32), indexing="ij")
    phase = (xx * torch.cos(torch.tensor(angle)) + yy * torch.sin(torch.tensor(angle))) * 6.2832 / period
    return (0.5 + 0.4 * torch.sin(phase)).reshape(1, 1, h, w)


def _noise(h, w, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.rand(1, 1, h, w, generator=g)


def _washed_out(h, w):
    img = torch.ones(1, 1, h, w)
    img[..., ::12, :] = 0.0  # a few dark rows, mean ~0.92
    return img


def example_inputs():
    return (_ridges(64, 64),)


def dynamic_shapes():
    return ({2: Dim("h", min=32, max=192), 3: Dim("w", min=32, max=192)},)


def verify_inputs():
    return [
        example_inputs(),               # good 64x64 capture: no resize, coherent -> embedding released
        (_ridges(80, 128, angle=1.1),), # wide capture: resize via the width test, coherent
        (_ridges(128, 48),),            # tall capture: width test false, height test true -> resize
        (_noise(72, 72, 3),),           # smudged capture: low coherence -> embedding zeroed
        (torch.full((1, 1, 40, 56), 0.5),),  # blank sensor: contrast < 0.05 -> early return
        (_washed_out(48, 48),),         # washed out: contrast ok but brightness > 0.9 -> early return
    ]
