"""Iris recognition front end: find the pupil by dark-pixel centroid, search
outward over circle radii for the strongest dark-to-bright step (the pupil
boundary), stop when rings reach the sclera, then unwrap the iris annulus to a
polar strip and embed it with a small CNN into an iris code.

Kind X. Constructs: 1, 2, 5, 6, 7, 8.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim


def find_pupil(img, dark_level, min_area):
    """Centroid (cy, cx) of dark pixels, or None if the eye is closed."""
    mask = (img[0, 0] < dark_level).float()
    area = mask.sum()
    if area < min_area:
        return None
    ys = torch.arange(img.shape[2], dtype=torch.float32)
    xs = torch.arange(img.shape[3], dtype=torch.float32)
    cy = (mask.sum(1) * ys).sum() / area
    cx = (mask.sum(0) * xs).sum() / area
    return cy, cx


def sample_polar(img, cy, cx, radii, n_angles):
    """Bilinear samples on circles: returns [len(radii), n_angles]."""
    H, W = img.shape[2], img.shape[3]
    theta = torch.arange(n_angles, dtype=torch.float32) * (2 * math.pi / n_angles)
    y = cy + radii.unsqueeze(1) * torch.sin(theta)
    x = cx + radii.unsqueeze(1) * torch.cos(theta)
    grid = torch.stack([x / (W - 1) * 2 - 1, y / (H - 1) * 2 - 1], dim=-1).unsqueeze(0)
    return F.grid_sample(img, grid, mode="bilinear", align_corners=True)[0, 0]


def ring_mean(img, cy, cx, r):
    return sample_polar(img, cy, cx, r.reshape(1), 64).mean()


class IrisLocalizer(nn.Module):
    def __init__(self, r_min=4, min_contrast=0.05, sclera_level=0.75, work_size=128):
        super().__init__()
        self.r_min = r_min
        self.min_contrast = min_contrast
        self.sclera_level = sclera_level
        self.work_size = work_size
        self.encoder = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(),
            nn.AdaptiveAvgPool2d((2, 8)), nn.Flatten(), nn.Linear(16 * 8, 16),
        )

    def forward(self, img):
        # img: [1, 1, H, W] near-infrared eye crop in [0, 1]
        scale = 1.0
        if min(img.shape[2], img.shape[3]) > self.work_size:
            img = F.avg_pool2d(img, 2)
            scale = 2.0
        found = find_pupil(img, 0.2, 12)
        if found is None:
            return torch.zeros(3), torch.zeros(16)  # blink / eyelid closed
        cy, cx = found

        r_max = min(img.shape[2], img.shape[3]) // 2 - 2
        prev = ring_mean(img, cy, cx, torch.tensor(float(self.r_min)))
        best_jump = torch.tensor(self.min_contrast)
        best_r = torch.tensor(float(self.r_min))
        for r in range(self.r_min + 1, r_max):
            cur = ring_mean(img, cy, cx, torch.tensor(float(r)))
            jump = cur - prev
            if jump > best_jump:
                best_jump = jump
                best_r = torch.tensor(float(r))
            if cur > self.sclera_level:
                break  # rings are on the white of the eye now
            prev = cur

        radii = best_r * torch.linspace(1.2, 2.4, 8)
        strip = sample_polar(img, cy, cx, radii, 32)
        strip = (strip - strip.mean()) / (strip.std() + 1e-3)
        code = torch.tanh(self.encoder(strip.view(1, 1, 8, 32)))[0]
        geometry = torch.stack([cy, cx, best_r]) * scale
        return geometry, code


def model():
    torch.manual_seed(17)
    return IrisLocalizer().eval()


def _eye(h, w, cy, cx, r_pupil, r_iris, outside, seed):
    g = torch.Generator().manual_seed(seed)
    yy, xx = torch.meshgrid(torch.arange(h, dtype=torch.float32), torch.arange(w, dtype=torch.float32), indexing="ij")
    d = ((yy - cy) ** 2 + (xx - cx) ** 2).sqrt()
    img = torch.full((h, w), outside)
    img = torch.where(d < r_iris, 0.55 + 0.04 * torch.sin(6 * torch.atan2(yy - cy, xx - cx)), img)
    img = torch.where(d < r_pupil, torch.tensor(0.05), img)
    img = img + 0.01 * torch.randn(h, w, generator=g)
    return img.clamp(0, 1).view(1, 1, h, w)


def example_inputs():
    return (_eye(96, 96, 48.0, 47.0, 10.5, 26.5, 0.85, 0),)


def dynamic_shapes():
    return ({2: Dim("height", min=48, max=256), 3: Dim("width", min=48, max=256)},)


def verify_inputs():
    return [
        example_inputs(),  # pupil edge found, rings hit sclera -> break
        (_eye(64, 80, 30.0, 42.0, 8.5, 40.0, 0.65, 1),),  # iris fills the crop, skin not bright: loop runs to r_max (no break)
        (_eye(200, 240, 100.0, 118.0, 22.5, 55.5, 0.85, 2),),  # min side > 128 -> downsample x2; break at sclera
        (torch.full((1, 1, 70, 70), 0.55),),  # closed eyelid: no dark pixels -> early return
        (_eye(48, 48, 24.0, 24.0, 6.5, 15.5, 0.9, 3),),  # min size
        (_eye(256, 256, 128.0, 128.0, 30.5, 80.5, 0.65, 4),),  # max size, downsampled, no break
    ]
