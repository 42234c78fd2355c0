"""Cheese-cave camera: grades wheels of hard cheese from a rind photo.

A small CNN estimates the age (months) of the wheel from its rind colour and
texture; a separate rind inspector looks for blue-green mould spots.  Wheels
with visible mould are rejected unless the line makes blue cheese.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim

REJECT, YOUNG, MATURE = 0, 1, 2


class RindInspector(nn.Module):
    """Flags blue-green mould: pixels whose green/blue clearly dominate red."""

    def __init__(self, tolerance=0.02, weight=5.0):
        super().__init__()
        self.tolerance = tolerance
        self.weight = weight

    def forward(self, img):
        r, g, b = img[:, 0], img[:, 1], img[:, 2]
        mould = F.relu((g + b) / 2 - r - 0.1).mean()
        if mould > self.tolerance:
            penalty = mould * self.weight
        else:
            penalty = torch.zeros_like(mould)
        return penalty


class CheeseGrader(nn.Module):
    def __init__(self, width=16, n_blocks=3, normalise=True, blue_cheese_line=False):
        super().__init__()
        self.normalise = normalise
        self.blue_cheese_line = blue_cheese_line
        self.min_side = 32
        self.register_buffer("mean", torch.tensor([0.6, 0.5, 0.35]).view(1, 3, 1, 1))
        self.register_buffer("std", torch.tensor([0.2, 0.2, 0.2]).view(1, 3, 1, 1))
        self.register_buffer("stage_months", torch.tensor([1.0, 3.0, 6.0, 12.0, 24.0]))
        self.stem = nn.Conv2d(3, width, 3, stride=2, padding=1)
        self.blocks = nn.ModuleList([nn.Conv2d(width, width, 3, padding=1) for _ in range(n_blocks)])
        self.stage_head = nn.Linear(width, 5)
        self.rind = RindInspector()
        self.young_below_months = 9.3     # this line sells 'jeune' under ~9 months

    def forward(self, img):
        penalty = self.rind(img)
        if self.normalise:
            img = (img - self.mean) / self.std
        if img.shape[-1] < self.min_side or img.shape[-2] < self.min_side:
            img = F.interpolate(img, size=(self.min_side, self.min_side), mode="bilinear", align_corners=False)
        x = F.relu(self.stem(img))
        for blk in self.blocks:
            x = x + F.relu(blk(x))
        feat = x.mean(dim=(2, 3))
        probs = self.stage_head(feat).softmax(-1)
        months = (probs * self.stage_months).sum(-1)[0]

        if penalty > 0 and not self.blue_cheese_line:
            grade = torch.tensor(REJECT)
        elif months < self.young_below_months:
            grade = torch.tensor(YOUNG)
        else:
            grade = torch.tensor(MATURE)
        return grade, months, penalty, probs


def model():
    torch.manual_seed(11)
    return CheeseGrader().eval()


def _gen_rind(h, w, rgb, seed, mould_frac=0.0):
    g = torch.Generator().manual_seed(seed)
    img = torch.tensor(rgb).view(1, 3, 1, 1).expand(1, 3, h, w).clone()
    img = img + 0.03 * torch.randn(1, 3, h, w, generator=g)
    if mould_frac > 0:
        hh = int(h * mould_frac)
        img[:, :, :hh, : w // 2] = torch.tensor([0.2, 0.6, 0.7]).view(1, 3, 1, 1)
    return img.clamp(0, 1)


def example_inputs():
    return (_gen_rind(48, 64, [0.75, 0.6, 0.3], 0),)


def dynamic_shapes():
    return ({2: Dim("h", min=16, max=128), 3: Dim("w", min=16, max=128)},)


def verify_inputs():
    return [
        example_inputs(),                                    # large image, no mould, pale rind
        (_gen_rind(24, 40, [0.75, 0.6, 0.3], 1),),           # short side < 32 -> resized (height only small)
        (_gen_rind(40, 20, [0.45, 0.3, 0.15], 2),),          # narrow -> resized, dark aged rind
        (_gen_rind(64, 64, [0.45, 0.3, 0.15], 3),),          # dark aged rind, no resize
        (_gen_rind(64, 48, [0.75, 0.6, 0.3], 4, 0.5),),      # mould patch -> penalty > 0 -> REJECT
        (_gen_rind(20, 20, [0.6, 0.62, 0.55], 5),),          # greyish rind, both sides small -> resized, no mould
        (_gen_rind(64, 40, [0.75, 0.6, 0.3], 6, 0.06),),     # tiny mould speck below tolerance -> no penalty
    ]
