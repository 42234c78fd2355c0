"""Diabetic-retinopathy screening: grade a fundus photo and decide referral.

An image-quality gate rejects photos that are too dark / overexposed / flat.
Large photos are resized.  A small CNN (a ModuleList of conv blocks) produces
grade logits for the 5 ICDR grades; a hand-crafted lesion score (fraction of
very bright pixels in the green channel, a proxy for hard exudates) is added,
as is common in hybrid screening pipelines.  The referral level is derived
from the grade probabilities.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ConvBlock(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, 3, padding=1)
        self.bn = nn.BatchNorm2d(cout)

    def forward(self, x):
        return F.max_pool2d(F.relu(self.bn(self.conv(x))), 2)


class RetinopathyReferral(nn.Module):
    def __init__(self, work_size=128, channels=(3, 8, 16, 16)):
        super().__init__()
        self.work_size = work_size
        self.blocks = nn.ModuleList(ConvBlock(a, b) for a, b in zip(channels[:-1], channels[1:]))
        self.head = nn.Linear(channels[-1], 5)
        self.lesion_gain = 60.0
        self.prior_slope = -0.8   # most screened eyes have no retinopathy
        self.register_buffer("grade_axis", torch.arange(5, dtype=torch.float32) - 2.0)

    def gradable(self, img):
        lum = img.mean()
        if lum < 0.08 or lum > 0.92:
            return False
        return img.std() > 0.03

    def forward(self, fundus):
        if fundus.shape[-1] > self.work_size or fundus.shape[-2] > self.work_size:
            fundus = F.interpolate(fundus, size=(self.work_size, self.work_size),
                                   mode="bilinear", align_corners=False)
        if not self.gradable(fundus):
            return torch.full((5,), -1.0), torch.tensor(-1.0)
        x = fundus
        for block in self.blocks:
            x = block(x)
        logits = self.head(x.mean(dim=(2, 3))).squeeze(0)
        lesion = (fundus[:, 1] > 0.85).float().mean()
        logits = logits + (self.prior_slope + self.lesion_gain * lesion) * self.grade_axis
        probs = torch.softmax(logits, dim=-1)
        if probs[3:].sum() > 0.5:
            referral = torch.tensor(2.0)    # urgent: severe NPDR / PDR
        elif probs[2:].sum() > 0.5:
            referral = torch.tensor(1.0)    # routine referral: moderate NPDR
        else:
            referral = torch.tensor(0.0)    # rescreen in 12 months
        return probs, referral


def model():
    torch.manual_seed(505)
    return RetinopathyReferral().eval()


def _fundus(seed, h, w, base=0.45, spots=0):
    g = torch.Generator().manual_seed(seed)
    yy, xx = torch.meshgrid(torch.linspace(-1, 1, h), torch.linspace(-1, 1, w), indexing="ij")
    disc = (1.0 - 0.6 * (xx ** 2 + yy ** 2)).clamp(0, 1)
    img = base * disc.expand(3, h, w) * torch.tensor([1.0, 0.7, 0.4]).view(3, 1, 1)
    img = img + 0.03 * torch.rand(3, h, w, generator=g)
    if spots:
        # exudate-like bright blobs of 4x4 pixels
        cells = torch.rand(1, 1, h // 4, w // 4, generator=g) < spots
        blobs = F.interpolate(cells.float(), size=(h // 4 * 4, w // 4 * 4), mode="nearest")[0, 0] > 0
        img[1, : h // 4 * 4, : w // 4 * 4][blobs] = 0.95
    return img.unsqueeze(0)


def example_inputs():
    return (_fundus(1, 96, 96, spots=0.0),)


def dynamic_shapes():
    return ({2: torch.export.Dim("height", min=32, max=512), 3: torch.export.Dim("width", min=32, max=512)},)


def verify_inputs():
    return [
        # example: clean, small image, no lesions -> no referral
        example_inputs(),
        # large wide image (resized), some exudate-like spots -> routine referral
        (_fundus(2, 160, 240, spots=0.02),),
        # tall image (only height over the work size) with many spots -> urgent referral
        (_fundus(3, 200, 100, spots=0.05),),
        # underexposed photo -> ungradable (first clause of the or)
        (_fundus(4, 64, 64, base=0.05),),
        # overexposed photo -> ungradable (second clause of the or)
        (torch.full((1, 3, 48, 64), 0.97),),
        # mid-grey but flat (no contrast) -> ungradable via the std check
        (torch.full((1, 3, 40, 40), 0.5),),
    ]
