"""Portable bladder scanner: post-void residual volume from an ultrasound sweep.

The probe sweeps a fan of S B-mode slices (S x 1 x H x W, intensities in [0, 1]).
Urine is anechoic (dark), so each pixel's bladder probability combines a
darkness prior with a small learned CNN residual. Large frames are resampled
to the network's working resolution. Slices that miss the bladder are skipped,
the cross-sections are integrated along the sweep, and retention above 300 ml
raises a catheterisation flag.

Kind: T. Constructs: 1, 2, 5, 6, 8, 9.
"""
import torch
import torch.nn.functional as F
from torch import nn
from torch.export import Dim


class BladderSegmenter(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, padding=1)
        self.conv2 = nn.Conv2d(8, 1, 3, padding=1)
        self.dropout = nn.Dropout2d(0.1)

    def forward(self, x):
        smooth = F.avg_pool2d(x, 5, stride=1, padding=2, count_include_pad=False)
        h = F.relu(self.conv1(x))
        h = self.dropout(h) if self.training else h
        residual = torch.tanh(self.conv2(h))
        return torch.sigmoid(20.0 * (0.35 - smooth) + 0.5 * residual)


class BladderVolumeScanner(nn.Module):
    def __init__(self, work_size=64, native_pixel_mm=1.2, slice_spacing_mm=10.0,
                 min_area_px=60.0, retention_ml=300.0):
        super().__init__()
        self.segmenter = BladderSegmenter()
        self.work_size = work_size
        self.native_pixel_mm = native_pixel_mm
        self.slice_spacing_mm = slice_spacing_mm
        self.min_area_px = min_area_px
        self.retention_ml = retention_ml

    def forward(self, sweep):
        h, w = sweep.shape[-2], sweep.shape[-1]
        pixel_area_mm2 = self.native_pixel_mm ** 2
        if h > self.work_size or w > self.work_size:
            sweep = F.interpolate(sweep, size=(self.work_size, self.work_size), mode="bilinear",
                                  align_corners=False)
            pixel_area_mm2 = pixel_area_mm2 * (h / self.work_size) * (w / self.work_size)
        areas = []
        for s in range(sweep.shape[0]):
            prob = self.segmenter(sweep[s:s + 1])
            area_px = prob.sum()
            if area_px < self.min_area_px:
                continue  # slice outside the bladder
            areas.append(area_px * pixel_area_mm2)
        if len(areas) < 2:
            return sweep.new_zeros(1), torch.zeros(1, dtype=torch.bool)
        areas_mm2 = torch.stack(areas)
        volume_ml = torch.trapezoid(areas_mm2, dx=self.slice_spacing_mm) / 1000.0
        return volume_ml.reshape(1), (volume_ml > self.retention_ml).reshape(1)


def model():
    torch.manual_seed(4205)
    return BladderVolumeScanner().eval()


def _sweep(radii_px, h=64, w=64, seed=0):
    """Bright speckled tissue with a dark elliptical bladder cross-section per slice."""
    g = torch.Generator().manual_seed(seed)
    yy = torch.arange(h, dtype=torch.float32).view(-1, 1) - h / 2
    xx = torch.arange(w, dtype=torch.float32).view(1, -1) - w / 2
    slices = []
    for r in radii_px:
        img = 0.75 + 0.1 * torch.rand(h, w, generator=g)
        if r > 0:
            inside = (yy / (0.8 * r)) ** 2 + (xx / r) ** 2 < 1.0
            img = torch.where(inside, 0.05 + 0.05 * torch.rand(h, w, generator=g), img)
        slices.append(img)
    return (torch.stack(slices).unsqueeze(1),)


def example_inputs():
    return _sweep([0, 10, 16, 20, 18, 12, 0], seed=0)


def dynamic_shapes():
    return ({0: Dim("slices", min=2, max=24), 2: Dim("height", min=32, max=160),
             3: Dim("width", min=32, max=160)},)


def verify_inputs():
    return [
        example_inputs(),                                 # edge slices skipped, moderate volume, no flag
        _sweep([0, 0, 0], seed=1),                        # bladder not found -> early return
        _sweep([0, 14, 0, 0], seed=2),                    # only one slice hits -> early return
        _sweep([24, 30, 34, 36, 37, 37, 36, 34, 30, 24], h=128, w=120, seed=3),  # resampled; > 300 ml flagged
        _sweep([4, 12, 9], h=40, w=100, seed=5),          # wide frame resampled, small bladder, first slice skipped
        _sweep([11, 12], h=48, w=40, seed=4),             # small frame, no resampling, two slices
    ]
