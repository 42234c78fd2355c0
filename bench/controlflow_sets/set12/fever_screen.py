"""Thermal-camera fever screening.

Input: a radiometric thermal frame in degrees C, (1, 1, H, W) with H, W dynamic, and the
ambient temperature (1,). A small detector gives a face heat map; if no face is present
the frame is skipped. The skin temperature is the mean of the hottest pixels inside the
face region, compensated for ambient temperature; status: 0 no face, 1 normal,
2 re-check (borderline or ambient out of the calibrated range), 3 fever.
"""
import torch
from torch import nn
import torch.nn.functional as F


class FaceHeat(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(1, 8, 3, stride=2, padding=1)
        self.c2 = nn.Conv2d(8, 1, 3, stride=2, padding=1)

    def forward(self, x):
        return torch.sigmoid(self.c2(torch.relu(self.c1(x))) * 4.0)


class FeverScreen(nn.Module):
    def __init__(self):
        super().__init__()
        self.det = FaceHeat()
        self.face_thr = 0.7
        self.hot_pixels = 16
        self.offset = 0.6          # skin-to-core offset
        self.fever = 38.0
        self.recheck = 37.5

    def forward(self, thermal: torch.Tensor, ambient: torch.Tensor):
        heat = self.det((thermal - 30.0) / 5.0)
        if heat.max() < self.face_thr:
            return torch.zeros(2)
        face = F.interpolate(heat, size=(thermal.shape[2], thermal.shape[3]), mode="nearest") > self.face_thr
        skin = torch.where(face, thermal, torch.full_like(thermal, -100.0)).flatten()
        hottest = torch.sort(skin, descending=True).values[: self.hot_pixels]
        temp = hottest.mean() + self.offset
        a = ambient[0]
        if a > 28.0:
            temp = temp - 0.1 * (a - 28.0)
        elif a < 15.0:
            temp = temp + 0.05 * (15.0 - a)
        out_of_range = a > 35.0 or a < 5.0
        if temp > self.fever and not out_of_range:
            status = 3.0
        elif temp > self.recheck or out_of_range:
            status = 2.0
        else:
            status = 1.0
        return torch.stack([torch.full((), status), temp])


def model():
    torch.manual_seed(12)
    return FeverScreen().eval()


def _frame(seed, H, W, face_temp, ambient):
    g = torch.Generator().manual_seed(seed)
    img = 21.0 + torch.randn(1, 1, H, W, generator=g) * 0.3
    if face_temp is not None:
        yy = torch.arange(H).view(H, 1).float()
        xx = torch.arange(W).view(1, W).float()
        blob = ((yy - H / 2) ** 2 / (H / 5) ** 2 + (xx - W / 2) ** 2 / (W / 6) ** 2) < 1
        img = torch.where(blob, face_temp + torch.randn(1, 1, H, W, generator=g) * 0.4, img)
    return img, torch.tensor([ambient])


def example_inputs():
    return _frame(0, 64, 48, 35.6, 22.0)


def dynamic_shapes():
    return ({2: torch.export.Dim("H", min=16, max=480), 3: torch.export.Dim("W", min=16, max=640)}, None)


def verify_inputs():
    return [_frame(1, 32, 32, None, 22.0), _frame(2, 120, 160, 37.9, 30.0), _frame(3, 64, 64, 36.0, 10.0),
            _frame(4, 96, 80, 36.2, 38.0), _frame(5, 48, 48, 36.9, 3.0), _frame(6, 80, 60, 36.4, 20.0)]
