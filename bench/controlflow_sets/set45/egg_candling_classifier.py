"""Hatchery egg candling: fertile / infertile / early-dead / cracked from a
backlit camera frame, with exposure fix-up and an empty-lamp shortcut.

Kind T. Constructs: 1, 2, 3, 8.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim

CLASSES = ["fertile", "infertile", "early_dead", "cracked", "empty_lamp"]


class CandlingNet(nn.Module):
    def __init__(self, work_size=96):
        super().__init__()
        self.work_size = work_size
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        )
        self.head = nn.Linear(32, len(CLASSES) - 1)

    def forward(self, img):
        # img: [B, 3, H, W] in [0, 1]
        brightness = img.mean()
        if img.std() < 0.02 and brightness > 0.9:
            # lamp is on but no egg in the cup
            logits = torch.full((img.shape[0], len(CLASSES)), -10.0)
            logits[:, -1] = 10.0
            return logits

        if brightness < 0.15:
            img = (img * 2.5).clamp(0, 1)  # underexposed lamp
        elif brightness > 0.85:
            img = img * 0.6  # blown out
        if img.shape[2] > self.work_size or img.shape[3] > self.work_size:
            img = F.interpolate(img, size=(self.work_size, self.work_size),
                                mode="bilinear", align_corners=False)

        logits = self.head(self.backbone(img))
        empty = torch.full((img.shape[0], 1), -10.0)
        return torch.cat([logits, empty], dim=1)


def model():
    torch.manual_seed(1)
    return CandlingNet().eval()


def _egg(h, w, shell, bg, seed):
    g = torch.Generator().manual_seed(seed)
    yy, xx = torch.meshgrid(torch.linspace(-1, 1, h), torch.linspace(-1, 1, w), indexing="ij")
    inside = ((xx / 0.55) ** 2 + (yy / 0.75) ** 2) < 1.0
    img = torch.where(inside, torch.tensor(shell), torch.tensor(bg)).expand(3, h, w).clone()
    img = img + 0.02 * torch.randn(3, h, w, generator=g)
    return img.clamp(0, 1).unsqueeze(0).repeat(2, 1, 1, 1)


def example_inputs():
    return (_egg(64, 64, 0.55, 0.2, 0),)


def dynamic_shapes():
    return ({2: Dim("height", min=32, max=256), 3: Dim("width", min=32, max=256)},)


def verify_inputs():
    return [
        example_inputs(),  # normal exposure (~0.35), 64x64: no resize
        (_egg(40, 48, 0.25, 0.05, 1),),  # dark (~0.12 < 0.15): boost branch, no resize
        (_egg(128, 160, 0.65, 1.0, 2),),  # bright (~0.88 > 0.85) but textured: dim branch; both sides > 96 -> resize
        (_egg(64, 200, 0.6, 0.3, 3),),  # normal; only width > 96 -> resize via `or`
        (torch.full((2, 3, 80, 80), 0.95),),  # empty lamp: std 0 and bright -> early return
        (torch.full((2, 3, 80, 80), 0.05),),  # flat but dark: std small, `and` fails on brightness -> dark branch
    ]
