"""Skin lesion triage: CNN + ABCD rule features, refer/urgent logic with and/or/not (typical)."""
import torch
from torch import nn


class LesionCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.f = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                               nn.Linear(8, 2))

    def forward(self, x):
        return self.f(x)


def asymmetry(mask: torch.Tensor) -> torch.Tensor:
    return (mask - mask.flip(-1)).abs().mean()


class SkinTriage(nn.Module):
    def __init__(self):
        super().__init__()
        self.cnn = LesionCNN()

    def forward(self, img: torch.Tensor):
        # img: [1, 3, H, W], H, W dynamic
        logits = self.cnn(img)
        mask = (img.mean(1) < 0.3).float()
        area = mask.mean()
        if area < 0.01:
            return torch.tensor(0), logits.softmax(-1)
        asym = asymmetry(mask)
        dark = img.mean(1)[mask > 0].mean()
        big = area > 0.2
        if (asym > 0.1 and big) or (not (dark > 0.1) and big):
            level = torch.tensor(2)
        elif asym > 0.1 or big:
            level = torch.tensor(1)
        else:
            level = torch.tensor(0)
        return level, logits.softmax(-1)


def model():
    torch.manual_seed(22)
    return SkinTriage().eval()


def _img(h, w, box, val=0.2):
    x = torch.full((1, 3, h, w), 0.8)
    r0, r1, c0, c1 = box
    x[:, :, r0:r1, c0:c1] = val
    return x


def example_inputs():
    return (_img(32, 32, (10, 20, 10, 20)),)


def dynamic_shapes():
    return ({2: torch.export.Dim("H", min=16, max=256), 3: torch.export.Dim("W", min=16, max=256)},)


def verify_inputs():
    return [(_img(32, 48, (0, 0, 0, 0)),), (_img(40, 40, (0, 30, 0, 20)),), (_img(32, 32, (2, 30, 4, 28), 0.05),),
            (_img(32, 32, (4, 20, 0, 10)),), (_img(24, 24, (0, 20, 2, 22)),)]
