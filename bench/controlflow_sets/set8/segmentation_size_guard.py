"""Lightweight semantic-segmentation net that guards its working resolution by the input size.

Large inputs are downscaled, tiny ones upscaled, and the mask is resized back to the input size.
"""

import torch
from torch import nn
from torch.nn import functional as F

N_CLASSES = 4


def dw_block(cin, cout, stride=1):
    return nn.Sequential(
        nn.Conv2d(cin, cin, 3, stride, 1, groups=cin, bias=False),
        nn.BatchNorm2d(cin),
        nn.ReLU(),
        nn.Conv2d(cin, cout, 1, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(),
    )


class TinySegNet(nn.Module):
    def __init__(self, max_side: int = 96, min_side: int = 16):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.BatchNorm2d(16), nn.ReLU())
        self.body = nn.Sequential(dw_block(16, 32, 2), dw_block(32, 32))
        self.classifier = nn.Conv2d(32 + 16, N_CLASSES, 1)
        self.max_side = max_side
        self.min_side = min_side

    def forward(self, img):
        h, w = img.shape[2], img.shape[3]
        x = img
        if max(h, w) > self.max_side:
            x = F.interpolate(x, scale_factor=0.5, mode="bilinear", align_corners=False)
        elif min(h, w) < self.min_side:
            x = F.interpolate(x, scale_factor=2.0, mode="nearest")
        s = self.stem(x)
        f = self.body(s)
        f = F.interpolate(f, size=s.shape[2:], mode="bilinear", align_corners=False)
        logits = self.classifier(torch.cat([f, s], dim=1))
        return F.interpolate(logits, size=(h, w), mode="bilinear", align_corners=False)


def model():
    torch.manual_seed(0)
    return TinySegNet().eval()


def example_inputs():
    torch.manual_seed(1)
    return (torch.randn(1, 3, 64, 48),)


def dynamic_shapes():
    return ({2: torch.export.Dim("h", min=8, max=192), 3: torch.export.Dim("w", min=8, max=192)},)


def verify_inputs():
    g = torch.Generator().manual_seed(2)
    return [
        (torch.randn(1, 3, 192, 160, generator=g),),  # both sides large: downscale
        (torch.randn(1, 3, 40, 130, generator=g),),  # only the width large: downscale
        (torch.randn(1, 3, 8, 8, generator=g),),  # tiny: upscale
        (torch.randn(1, 3, 12, 64, generator=g),),  # one short side: upscale
        (torch.randn(1, 3, 96, 16, generator=g),),  # on both limits: neither
        (torch.randn(1, 3, 33, 57, generator=g),),  # odd sizes, neither
    ]
