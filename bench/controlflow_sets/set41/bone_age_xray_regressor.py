"""Paediatric bone-age regressor from a hand radiograph.

Scans arrive at any resolution: large scans are resized to the working size,
small thumbnails are padded, washed-out films get a contrast stretch. A small
CNN encodes the hand, and sex-specific heads map the embedding to bone age in
months (Greulich-Pyle style separate male/female references).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim


def normalize_exposure(x, min_std=0.05):
    std = x.std()
    if std < min_std:
        # washed-out / under-exposed film: stretch contrast around the mean
        x = (x - x.mean()) / (std + 1e-3) * 0.2 + 0.5
    return x


class ConvBlock(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, 3, padding=1)
        self.bn = nn.BatchNorm2d(cout)

    def forward(self, x):
        return F.max_pool2d(F.relu(self.bn(self.conv(x))), 2)


class BoneAgeNet(nn.Module):
    def __init__(self, widths=(8, 16, 32), work_size=128, min_size=48):
        super().__init__()
        chans = (1,) + tuple(widths)
        self.blocks = nn.ModuleList([ConvBlock(a, b) for a, b in zip(chans[:-1], chans[1:])])
        self.work_size = work_size
        self.min_size = min_size
        self.drop = nn.Dropout(0.2)
        self.male_head = nn.Linear(widths[-1], 1)
        self.female_head = nn.Linear(widths[-1], 1)

    def forward(self, xray, sex):
        x = normalize_exposure(xray)
        h, w = x.shape[-2], x.shape[-1]
        if h > self.work_size or w > self.work_size:
            x = F.interpolate(x, size=(self.work_size, self.work_size), mode="bilinear", align_corners=False)
        elif min(h, w) < self.min_size:
            x = F.pad(x, (0, max(0, self.min_size - w), 0, max(0, self.min_size - h)), value=0.0)

        for block in self.blocks:
            x = block(x)
        feat = x.mean(dim=(2, 3)).flatten()
        feat = self.drop(feat) if self.training else feat

        if sex[0] > 0.5:
            raw = self.male_head(feat)
        else:
            raw = self.female_head(feat)
        return 108.0 + 60.0 * torch.tanh(raw)  # months, 4..14 years


def model():
    torch.manual_seed(29)
    return BoneAgeNet().eval()


def _scan(h, w, seed, contrast=1.0):
    g = torch.Generator().manual_seed(seed)
    img = torch.rand(1, 1, h, w, generator=g)
    img = F.avg_pool2d(img, 3, stride=1, padding=1)
    img = 0.5 + contrast * (img - 0.5) * 2.0
    return img


def example_inputs():
    return (_scan(96, 80, seed=0), torch.tensor([0.0]))


def dynamic_shapes():
    return ({2: Dim("height", min=32, max=512), 3: Dim("width", min=32, max=512)}, None)


def verify_inputs():
    return [
        example_inputs(),                                      # working size: no resize/pad, female head
        (_scan(256, 200, seed=1), torch.tensor([1.0])),        # large scan -> resize (via height), male
        (_scan(40, 36, seed=2, contrast=0.05), torch.tensor([1.0])),   # thumbnail -> pad; washed-out film
        (_scan(64, 130, seed=3, contrast=0.05), torch.tensor([0.0])),  # wide scan -> resize (via width); washed out
        (_scan(32, 32, seed=4), torch.tensor([0.0])),          # minimum size -> pad
        (_scan(128, 48, seed=5), torch.tensor([1.0])),         # exactly at limits: neither resize nor pad
    ]
