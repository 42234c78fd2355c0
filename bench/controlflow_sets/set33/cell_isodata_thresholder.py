"""Fluorescence-microscopy field triage: ISODATA (Ridler-Calvard) threshold,
foreground statistics and a small CNN that scores the field for a cell phenotype.

img: [1, 1, H, W] intensities in [0, 1] (H and W dynamic).
Returns (threshold[1], stats [foreground fraction, mean fg intensity, mean bg
intensity], phenotype logits[3]).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim


class IsodataTriage(nn.Module):
    def __init__(self, tol=1e-3, max_iter=50, min_contrast=0.3):
        super().__init__()
        self.tol = tol
        self.max_iter = max_iter
        self.min_contrast = min_contrast
        self.features = nn.Sequential(
            nn.Conv2d(2, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 8, 3, padding=1), nn.ReLU())
        self.head = nn.Linear(8, 3)

    def forward(self, img):
        h, w = img.shape[-2], img.shape[-1]
        if h * w > 96 * 96:
            stats_img = img[..., ::2, ::2]  # large field: threshold statistics on a subsample
        else:
            stats_img = img

        if stats_img.max() - stats_img.min() < self.min_contrast:
            # empty or out-of-focus field: nothing to segment
            return torch.zeros(1), torch.zeros(3), torch.zeros(3)

        t = stats_img.mean()
        delta = torch.tensor(1.0)
        it = 0
        while delta > self.tol and it < self.max_iter:
            fg = stats_img[stats_img > t]
            bg = stats_img[stats_img <= t]
            new_t = 0.5 * (fg.mean() + bg.mean())
            delta = (new_t - t).abs()
            t = new_t
            it += 1

        mask = (img > t).float()
        frac = mask.mean()
        fg_mean = (img * mask).sum() / mask.sum().clamp_min(1.0)
        bg_mean = (img * (1 - mask)).sum() / (1 - mask).sum().clamp_min(1.0)
        if frac > 0.9:
            # confluent well: the threshold split background noise, report as saturated
            return t.reshape(1), torch.stack([frac, fg_mean, bg_mean]), torch.zeros(3)
        feats = self.features(torch.cat([img, mask.unsqueeze(0).unsqueeze(0).reshape_as(img)], dim=1))
        logits = self.head(F.adaptive_max_pool2d(feats, 1).flatten())
        return t.reshape(1), torch.stack([frac, fg_mean, bg_mean]), logits


def model():
    torch.manual_seed(8)
    return IsodataTriage().eval()


def _field(h, w, n_cells, seed, radius=4.0, cell=0.8, bg=0.1):
    g = torch.Generator().manual_seed(seed)
    yy, xx = torch.meshgrid(torch.arange(h, dtype=torch.float32), torch.arange(w, dtype=torch.float32), indexing="ij")
    inside = torch.zeros(h, w, dtype=torch.bool)
    for _ in range(n_cells):
        cy = torch.rand((), generator=g) * h
        cx = torch.rand((), generator=g) * w
        r = radius * (0.7 + 0.6 * torch.rand((), generator=g))
        inside |= (yy - cy) ** 2 + (xx - cx) ** 2 < r * r
    noise = 0.04 * (torch.rand(h, w, generator=g) - 0.5) * 2
    img = torch.where(inside, torch.full((h, w), cell), torch.full((h, w), bg)) + noise
    return img.view(1, 1, h, w)


def example_inputs():
    return (_field(64, 80, 12, 1),)


def dynamic_shapes():
    return ({2: Dim("height", min=16, max=512), 3: Dim("width", min=16, max=512)},)


def verify_inputs():
    return [
        example_inputs(),                                  # small field, a dozen cells: full pipeline
        (_field(128, 112, 30, 2),),                        # large field: threshold on a 2x subsample
        (_field(48, 48, 0, 3),),                           # no cells, low contrast: early return
        (_field(40, 40, 30, 4, radius=8.0),),              # near-confluent: 93% foreground, saturated return
    ]
