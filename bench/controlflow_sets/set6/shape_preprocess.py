"""Shape-dependent preprocessing before a small classifier: an if/elif/else chain on the dynamic
input width/height picks downsampling, upsampling or nothing."""

import torch
import torch.nn.functional as F
from torch import nn


class ResizingClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3, stride=2, padding=1),
            nn.ReLU(),
            nn.Conv2d(16, 32, 3, stride=2, padding=1),
            nn.ReLU(),
        )
        self.fc = nn.Linear(32, 5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h, w = x.shape[2], x.shape[3]
        if w > 128 or h > 128:
            x = F.avg_pool2d(x, 2)
        elif w < 32:
            x = F.interpolate(x, scale_factor=2.0, mode="bilinear", align_corners=False)
        else:
            x = x * 1.0
        f = self.features(x)
        return self.fc(F.adaptive_avg_pool2d(f, 1).flatten(1))


def model() -> nn.Module:
    torch.manual_seed(0)
    return ResizingClassifier().eval()


def example_inputs() -> tuple:
    torch.manual_seed(1)
    return (torch.randn(1, 3, 64, 64),)


def dynamic_shapes():
    return ({2: torch.export.Dim("h", min=16, max=256), 3: torch.export.Dim("w", min=16, max=256)},)


def verify_inputs() -> list:
    g = torch.Generator().manual_seed(7)
    return [
        (torch.randn(1, 3, 200, 96, generator=g),),  # h > 128: downsample (via `or`, second operand)
        (torch.randn(1, 3, 64, 160, generator=g),),  # w > 128: downsample (first operand)
        (torch.randn(1, 3, 24, 20, generator=g),),  # w < 32: upsample
        (torch.randn(1, 3, 64, 64, generator=g),),  # else
    ]
