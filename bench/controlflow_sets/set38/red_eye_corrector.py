"""Photo editing: automatic red-eye removal on a detected eye crop.

Kind T. Constructs: 1 2 3 7 8
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class RedEyeCorrector(nn.Module):
    def __init__(self, red_thresh=0.35, max_fraction=0.2):
        super().__init__()
        self.red_thresh = red_thresh
        self.max_fraction = max_fraction
        # learned per-channel tint applied to the repaired pupil
        self.pupil_tint = nn.Parameter(torch.rand(3) * 0.1 + 0.9)

    def redness(self, img):
        r, g, b = img[0], img[1], img[2]
        return r - 0.5 * (g + b)

    def grow_mask(self, mask):
        # on larger crops the red rim around the pupil is a pixel or two wide: dilate
        if mask.shape[-1] >= 32 and mask.shape[-2] >= 32:
            grown = F.max_pool2d(mask.float()[None, None], 3, stride=1, padding=1)[0, 0]
            return grown > 0.5
        return mask

    def forward(self, img):
        red = self.redness(img)
        mask = red > self.red_thresh
        if not mask.any():
            return img
        if mask.float().mean() > self.max_fraction:
            # a red object (lipstick, sweater), not a flash reflection: leave the photo alone
            return img
        mask = self.grow_mask(mask)
        g, b = img[1], img[2]
        dark = 0.5 * (g + b)
        repaired = torch.stack([dark, g, b]) * self.pupil_tint[:, None, None]
        return torch.where(mask[None], repaired, img)


def model():
    torch.manual_seed(6)
    return RedEyeCorrector().eval()


def _make_eye(h, w, pupil, red_shirt=False, seed=0):
    """Skin-toned crop (redness ~0.25) with an optional red pupil disc of radius `pupil`."""
    g = torch.Generator().manual_seed(seed)
    img = torch.stack([torch.full((h, w), 0.80), torch.full((h, w), 0.60), torch.full((h, w), 0.50)])
    img = img + 0.02 * (torch.rand(3, h, w, generator=g) - 0.5)
    yy, xx = torch.meshgrid(torch.arange(h), torch.arange(w), indexing="ij")
    if pupil > 0:
        disc = ((yy - h // 2) ** 2 + (xx - w // 2) ** 2) <= pupil ** 2
        img[:, disc] = torch.tensor([0.90, 0.15, 0.12])[:, None]
    if red_shirt:
        img[:, h // 3:, :] = torch.tensor([0.85, 0.10, 0.10])[:, None, None]
    return img


def example_inputs():
    return (_make_eye(48, 64, 6, seed=0),)


def dynamic_shapes():
    return ({1: torch.export.Dim("h", min=8, max=256), 2: torch.export.Dim("w", min=8, max=256)},)


def verify_inputs():
    return [
        example_inputs(),                          # large crop with red pupil: corrected with dilation
        (_make_eye(24, 40, 4, seed=1),),           # short crop (h < 32, w >= 32): `and` fails on its second operand, no dilation
        (_make_eye(40, 20, 3, seed=2),),           # narrow crop (w < 32): `and` fails on its first operand, no dilation
        (_make_eye(32, 32, 0, seed=3),),           # no red at all: first early return
        (_make_eye(64, 48, 5, red_shirt=True, seed=4),),  # most of the crop is red: second early return
    ]
