"""Document deskew by iterative angle search.

Input: a grayscale page (1, 1, H, W) in [0, 1] (dark ink on white), H and W dynamic.
Blank pages are returned unchanged. Large pages are searched at half resolution. The
skew angle maximises the variance of the horizontal ink projection profile; the search
is a pattern search: try +/- step around the current angle, move if better, otherwise
halve the step, until the step is small or the iteration cap is hit. Small angles are
not corrected.
"""
import math

import torch
from torch import nn
import torch.nn.functional as F


def rotate(img, angle_deg):
    a = angle_deg * (math.pi / 180.0)
    c, s = torch.cos(a), torch.sin(a)
    zero = torch.zeros_like(c)
    theta = torch.stack([torch.stack([c, -s, zero]), torch.stack([s, c, zero])]).unsqueeze(0)
    grid = F.affine_grid(theta, list(img.shape), align_corners=False)
    return F.grid_sample(img, grid, mode="bilinear", padding_mode="zeros", align_corners=False)


class Deskew(nn.Module):
    def __init__(self):
        super().__init__()
        self.min_ink = 0.01
        self.init_step = 4.0
        self.min_step = 0.3
        self.max_iter = 8
        self.min_correction = 0.5

    def profile_score(self, ink, angle):
        prof = rotate(ink, angle).mean(dim=3)
        return prof.var() * 1e3

    def forward(self, page: torch.Tensor):
        ink = 1.0 - page
        if ink.mean() < self.min_ink:
            return page, torch.zeros(())
        small = F.avg_pool2d(ink, 2) if page.shape[2] > 256 else ink
        angle = torch.zeros(())
        step = torch.full((), self.init_step)
        best = self.profile_score(small, angle)
        it = 0
        while step > self.min_step:
            s_plus = self.profile_score(small, angle + step)
            s_minus = self.profile_score(small, angle - step)
            if s_plus > best and s_plus > s_minus:
                angle, best = angle + step, s_plus
            elif s_minus > best:
                angle, best = angle - step, s_minus
            else:
                step = step / 2
            it += 1
            if it >= self.max_iter:
                break
        if angle.abs() < self.min_correction:
            return page, angle
        return 1.0 - rotate(ink, -angle), angle


def model():
    torch.manual_seed(0)
    return Deskew().eval()


def _page(seed, H, W, skew_deg, blank=False):
    g = torch.Generator().manual_seed(seed)
    ink = torch.zeros(1, 1, H, W)
    if not blank:
        for y in range(8, H - 8, 12):
            words = (torch.rand(W, generator=g) > 0.25).float()
            ink[0, 0, y:y + 5, W // 10: W - W // 10] = words[W // 10: W - W // 10]
        ink = rotate(ink, torch.tensor(skew_deg))
    return (1.0 - ink,)


def example_inputs():
    return _page(0, 128, 96, 3.3)


def dynamic_shapes():
    return ({2: torch.export.Dim("H", min=32, max=1024), 3: torch.export.Dim("W", min=32, max=1024)},)


def verify_inputs():
    return [_page(1, 64, 64, 0.0, blank=True), _page(2, 300, 200, -6.2), _page(3, 96, 128, 0.2),
            _page(4, 160, 120, 11.0), _page(5, 128, 128, -1.7)]
