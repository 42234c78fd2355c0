"""Auto-crop the uniform border of a scanned photo, then run a small enhancement conv.

Rows/columns are peeled off each side while they contain no "ink" (every pixel within a
tolerance of the corner colour).  Very small crops are padded back to a minimum size.
"""
import torch
import torch.nn.functional as F
from torch import nn


def _has_ink(line, ref, tol):
    # line: [C, L] pixels of one row/column, ref: [C] border colour
    return (line - ref[:, None]).abs().amax() > tol


class ImageBorderAutocropper(nn.Module):
    def __init__(self, channels=3, tol=0.08, min_side=4):
        super().__init__()
        self.tol = tol
        self.min_side = min_side
        self.per_channel = True
        self.enhance = nn.Sequential(
            nn.Conv2d(channels, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, channels, 3, padding=1)
        )

    def forward(self, img):
        C, H, W = img.shape
        if self.per_channel:
            ref = img[:, 0, 0]
        else:
            ref = img[:, 0, 0].mean().expand(C)

        if not _has_ink(img.reshape(C, H * W), ref, self.tol):
            # blank page: nothing to crop
            box = torch.tensor([0, H, 0, W])
            return img, box

        top = 0
        while not _has_ink(img[:, top, :], ref, self.tol):
            top += 1
        bottom = H
        while not _has_ink(img[:, bottom - 1, :], ref, self.tol):
            bottom -= 1
        left = 0
        while not _has_ink(img[:, top:bottom, left], ref, self.tol):
            left += 1
        right = W
        while not _has_ink(img[:, top:bottom, right - 1], ref, self.tol):
            right -= 1

        crop = img[:, top:bottom, left:right]
        if crop.shape[1] < self.min_side or crop.shape[2] < self.min_side:
            pad_h = max(0, self.min_side - crop.shape[1])
            pad_w = max(0, self.min_side - crop.shape[2])
            crop = F.pad(crop[None], (0, pad_w, 0, pad_h), mode="replicate")[0]
        out = crop + 0.1 * self.enhance(crop[None])[0]
        box = torch.tensor([top, bottom, left, right])
        return out, box


def model():
    torch.manual_seed(0)
    return ImageBorderAutocropper().eval()


def _make_scan(h, w, borders, seed, blank=False):
    """borders = (top, bottom, left, right) widths of the uniform margin."""
    g = torch.Generator().manual_seed(seed)
    colour = 0.85 + 0.1 * torch.rand(3, 1, 1, generator=g)
    img = colour + 0.02 * (torch.rand(3, h, w, generator=g) - 0.5)
    img[:, 0, 0] = colour[:, 0, 0]
    if not blank:
        t, b, l, r = borders
        content = 0.5 * torch.rand(3, h - t - b, w - l - r, generator=g)
        img[:, t:h - b, l:w - r] = content
    return img


def example_inputs():
    return (_make_scan(24, 20, (3, 2, 1, 4), 0),)


def dynamic_shapes():
    return ({1: torch.export.Dim("height", min=4, max=64), 2: torch.export.Dim("width", min=4, max=64)},)


def verify_inputs():
    return [
        (_make_scan(16, 16, (0, 0, 0, 0), 1, blank=True),),   # blank page -> early return
        (_make_scan(16, 12, (0, 1, 3, 0), 2),),               # loops: 0 / 1 / many / 0
        (_make_scan(20, 24, (1, 4, 0, 1), 3),),               # loops: 1 / many / 0 / 1
        (_make_scan(32, 28, (5, 0, 1, 6), 4),),               # loops: many / 0 / 1 / many
        (_make_scan(12, 30, (5, 5, 2, 2), 5),),               # tiny height -> padded
        (_make_scan(30, 12, (2, 2, 5, 5), 6),),               # tiny width -> padded
        example_inputs(),
    ]
