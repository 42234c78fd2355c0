"""Thermal-camera fever screening gate (entrance kiosk, edge board).

Inputs: radiometric thermal frame (B, 1, H, W) in deg C, H and W dynamic, and the ambient
temperature (1,). Large frames are downsampled; a small CNN produces a face heatmap; with no
face the gate returns early. The skin temperature of the face region is corrected for the
ambient temperature and compared to the fever threshold.
"""

import torch
import torch.nn.functional as F
from torch import nn


class FaceHeatmap(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, padding=1)
        self.conv2 = nn.Conv2d(8, 1, 3, padding=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        # Faces are warm blobs: learned features plus a skin-temperature prior.
        skin = torch.sigmoid(2.0 * (x - 30.0))
        return torch.sigmoid(0.1 * self.conv2(torch.relu(self.conv1(x / 40.0))) + 6.0 * (skin - 0.5))


class FeverGate(nn.Module):
    def __init__(self, fever_c: float = 37.8, max_side: int = 120):
        super().__init__()
        self.fever_c, self.max_side = fever_c, max_side
        self.face = FaceHeatmap()

    def forward(self, frame: torch.Tensor, ambient: torch.Tensor):
        if frame.shape[2] > self.max_side or frame.shape[3] > self.max_side:
            frame = F.avg_pool2d(frame, 2)
        heat = self.face(frame)
        if heat.amax() < 0.5:
            return torch.zeros(frame.shape[0]), torch.zeros(frame.shape[0])
        mask = (heat > 0.5).float()
        # hottest 3x3 neighbourhood inside the face (inner canthus is the usual reading)
        masked = frame * mask + (1.0 - mask) * -100.0
        skin = F.avg_pool2d(masked, 3, stride=1, padding=1).flatten(1).amax(1)
        amb = ambient.view(())
        if amb < 18.0:
            core = skin + 0.6 + 0.05 * (18.0 - amb)
        elif amb > 30.0:
            core = skin + 0.6 - 0.04 * (amb - 30.0)
        else:
            core = skin + 0.6
        flag = (core > self.fever_c).float()
        return core, flag


def model() -> nn.Module:
    torch.manual_seed(0)
    return FeverGate().eval()


def _frame(h, w, face_c, seed):
    g = torch.Generator().manual_seed(seed)
    x = 22.0 + 0.5 * torch.randn(1, 1, h, w, generator=g)
    if face_c is not None:
        yy, xx = torch.meshgrid(torch.arange(h), torch.arange(w), indexing="ij")
        blob = torch.exp(-(((yy - h / 2) / (h / 6)) ** 2 + ((xx - w / 2) / (w / 8)) ** 2))
        x = x + (face_c - 22.0) * blob
    return x


def example_inputs() -> tuple:
    return _frame(60, 80, 36.2, 1), torch.tensor([22.0])


def dynamic_shapes():
    return ({2: torch.export.Dim("h", min=16, max=480), 3: torch.export.Dim("w", min=16, max=640)}, None)


def verify_inputs() -> list:
    return [
        (_frame(40, 40, None, 2), torch.tensor([22.0])),        # nobody in view
        (_frame(240, 320, 37.6, 3), torch.tensor([12.0])),      # cold day, large sensor, fever
        (_frame(64, 160, 36.8, 4), torch.tensor([34.0])),       # hot day, wide frame
    ]
