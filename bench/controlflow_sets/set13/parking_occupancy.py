"""Parking-lot occupancy from a fixed camera: a small CNN backbone, per-slot ROI pooling over a
variable list of slot boxes, and a lot status (0 empty, 1 partial, 2 full)."""

import torch
import torch.nn.functional as F
from torch import nn


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(3, 16, 3, stride=2, padding=1)
        self.c2 = nn.Conv2d(16, 32, 3, stride=2, padding=1)

    def forward(self, x):
        return torch.relu(self.c2(torch.relu(self.c1(x))))


class ParkingOccupancy(nn.Module):
    def __init__(self, tex_gain: float = 12.0, tex_ref: float = 0.15):
        super().__init__()
        self.backbone = Backbone()
        self.head = nn.Linear(32, 1)
        self.tex_gain = tex_gain
        self.tex_ref = tex_ref

    def forward(self, img: torch.Tensor, slots: torch.Tensor):
        # img: (1, 3, H, W); slots: (S, 4) int64 [y0, x0, y1, x1] in pixels
        h, w = img.shape[2], img.shape[3]
        if h % 8 != 0 or w % 8 != 0:
            img = F.pad(img, (0, (8 - w % 8) % 8, 0, (8 - h % 8) % 8), mode="replicate")
        feat = self.backbone(img)  # stride 4
        gray = img.mean(1, keepdim=True)
        logits = []
        for s in range(slots.shape[0]):
            y0, x0, y1, x1 = [int(v) for v in slots[s].tolist()]
            roi = feat[:, :, y0 // 4: y1 // 4 + 1, x0 // 4: x1 // 4 + 1]
            f = F.adaptive_avg_pool2d(roi, 1).flatten()
            texture = gray[0, 0, y0:y1, x0:x1].std()  # cars have edges, asphalt does not
            logits.append(0.1 * self.head(f).squeeze(-1) + self.tex_gain * (texture - self.tex_ref))
        probs = torch.sigmoid(torch.stack(logits))
        count = (probs > 0.5).sum()
        status = torch.tensor(2) if count == slots.shape[0] else (torch.tensor(1) if count > 0 else torch.tensor(0))
        return probs, count, status


def model() -> nn.Module:
    torch.manual_seed(0)
    return ParkingOccupancy().eval()


def _lot(h, w, slots, occupied, seed):
    g = torch.Generator().manual_seed(seed)
    img = 0.4 + 0.01 * torch.rand(1, 3, h, w, generator=g)
    for (y0, x0, y1, x1), o in zip(slots, occupied):
        if o:
            img[:, :, y0:y1, x0:x1] = torch.rand(1, 3, y1 - y0, x1 - x0, generator=g)
    return img, torch.tensor(slots, dtype=torch.long)


SLOTS = [[4, 4, 20, 16], [4, 20, 20, 32], [4, 36, 20, 48], [30, 4, 46, 16], [30, 20, 46, 32]]


def example_inputs() -> tuple:
    return _lot(64, 64, SLOTS, [1, 0, 1, 0, 0], 0)


def dynamic_shapes():
    return ({2: torch.export.Dim("h", min=32, max=256), 3: torch.export.Dim("w", min=32, max=256)},
            {0: torch.export.Dim("slots", min=2, max=32)})


def verify_inputs() -> list:
    return [
        _lot(50, 70, SLOTS[:3], [1, 1, 1], 1),      # full lot, odd size -> padding
        _lot(64, 60, SLOTS[:2], [0, 0], 2),         # empty, width not a multiple of 8
        _lot(96, 128, SLOTS + [[60, 60, 80, 90]], [0, 1, 0, 1, 1, 0], 3),
    ]
