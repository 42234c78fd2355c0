"""Face-recognition front end with an image-quality gate (phone unlock / attendance kiosk).

Before embedding a face crop, cheap checks reject crops that are too dark/bright or too
blurry (variance of the Laplacian); in those cases a zero embedding and a status code
are returned early. Small crops are upsampled to the network resolution, and a gamma
correction is chosen by a ternary on the mean brightness.
Outputs: (embedding (1,64), status (1,) int64: 0 ok, 1 exposure, 2 blur).
"""

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim


class QualityGatedEmbedder(nn.Module):
    def __init__(self, min_brightness=0.15, max_brightness=0.85, min_sharpness=0.004, net_size=96):
        super().__init__()
        self.min_b = min_brightness
        self.max_b = max_brightness
        self.min_sharp = min_sharpness
        self.net_size = net_size
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 16, 3, stride=2, padding=1),
            nn.BatchNorm2d(16),
            nn.PReLU(16),
            nn.Conv2d(16, 32, 3, stride=2, padding=1),
            nn.BatchNorm2d(32),
            nn.PReLU(32),
            nn.Conv2d(32, 64, 3, stride=2, padding=1),
            nn.BatchNorm2d(64),
            nn.PReLU(64),
            nn.AdaptiveAvgPool2d(1),
            nn.Flatten(),
            nn.Linear(64, 64),
        )
        lap = torch.tensor([[0.0, 1.0, 0.0], [1.0, -4.0, 1.0], [0.0, 1.0, 0.0]])
        self.register_buffer("lap", lap.view(1, 1, 3, 3))

    def sharpness(self, gray):
        return F.conv2d(gray, self.lap).var()

    def forward(self, img):
        gray = 0.299 * img[:, 0:1] + 0.587 * img[:, 1:2] + 0.114 * img[:, 2:3]
        brightness = gray.mean()
        if brightness < self.min_b or brightness > self.max_b:
            return torch.zeros(1, 64), torch.tensor([1])
        if not (self.sharpness(gray) > self.min_sharp):
            return torch.zeros(1, 64), torch.tensor([2])
        gamma = 0.8 if brightness < 0.35 else 1.0
        x = img.clamp(min=1e-6) ** gamma
        if min(x.shape[-1], x.shape[-2]) < self.net_size:
            x = F.interpolate(x, size=(self.net_size, self.net_size), mode="bilinear", align_corners=False)
        emb = F.normalize(self.backbone((x - 0.5) / 0.5), dim=-1)
        return emb, torch.tensor([0])


def model():
    torch.manual_seed(0)
    return QualityGatedEmbedder().eval()


def _face(seed, h, w, scale=1.0, offset=0.0, blur=False):
    g = torch.Generator().manual_seed(seed)
    x = torch.rand(1, 3, h, w, generator=g)
    if blur:
        x = x.mean(dim=(2, 3), keepdim=True).expand(1, 3, h, w) + 0.002 * torch.rand(1, 3, h, w, generator=g)
    return ((x * scale + offset).clamp(0, 1).contiguous(),)


def example_inputs():
    return _face(1, 112, 112)


def dynamic_shapes():
    return {"img": {2: Dim("h", min=48, max=224), 3: Dim("w", min=48, max=224)}}


def verify_inputs():
    return [
        _face(2, 112, 112, scale=0.1),  # too dark -> status 1
        _face(3, 80, 64, scale=0.2, offset=0.85),  # too bright -> status 1
        _face(4, 112, 96, blur=True),  # blurry -> status 2
        _face(5, 64, 72, scale=0.5),  # dark-ish, small -> gamma 0.8 + upsample
        _face(6, 160, 128, scale=0.8, offset=0.1),  # ok, large, gamma 1.0
    ]
