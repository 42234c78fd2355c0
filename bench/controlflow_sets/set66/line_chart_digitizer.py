"""Digitise a line chart from a scanned figure (recovering data from old papers).

The plot area is cropped to the axis box. A learned 3x3 clean-up filter suppresses scan
noise, then every pixel column is traced: the centroid of the dark pixels is the curve's
row, columns without ink or with tall ink (gridlines, legend text) give no point. Gaps
longer than a few columns split the curve into segments; tiny segments are specks and
are dropped. Pixel coordinates are mapped to data coordinates with the axis ranges.

Kind: X.  Constructs: 1, 2, 3, 5, 6, 7, 8.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim


def column_trace(col, ink_thr, max_span):
    """Row of the plotted curve in one pixel column, or None if there is no usable ink."""
    dark = col < ink_thr
    if not dark.any():
        return None
    rows = torch.nonzero(dark).squeeze(-1).float()
    if rows.max() - rows.min() > max_span:
        # gridline or legend text crosses this column
        return None
    return rows.mean()


class LineChartDigitizer(nn.Module):
    def __init__(self, ink_thr=0.5, max_gap=3, min_points=4, max_span=6, max_width=512):
        super().__init__()
        self.ink_thr = ink_thr
        self.max_gap = max_gap
        self.min_points = min_points
        self.max_span = max_span
        self.max_width = max_width
        self.cleanup = nn.Conv2d(1, 1, 3, padding=1)

    def forward(self, image, x_range, y_range):
        # image: (H, W) grey levels 0..1 of the plot box, x_range / y_range: (2,) axis limits
        if image.shape[1] > self.max_width:
            # very wide scans: halve the horizontal resolution
            image = F.avg_pool1d(image.unsqueeze(0), 2).squeeze(0)
        img = image + 0.05 * torch.tanh(self.cleanup(image[None, None]))[0, 0]
        height, width = img.shape
        segments = []
        current = []
        gap = 0
        for x in range(width):
            y = column_trace(img[:, x], self.ink_thr, self.max_span)
            if y is None:
                gap += 1
                if gap > self.max_gap and len(current) > 0:
                    segments.append(current)
                    current = []
                continue
            gap = 0
            current.append(torch.stack([torch.tensor(float(x)), y]))
        if len(current) > 0:
            segments.append(current)
        points = []
        seg_ids = []
        for k, seg in enumerate(segments):
            if len(seg) < self.min_points:
                continue
            seg_t = torch.stack(seg)
            points.append(seg_t)
            seg_ids.append(torch.full((seg_t.shape[0],), k))
        if len(points) == 0:
            return torch.zeros(0, 2), torch.zeros(0, dtype=torch.long)
        pts = torch.cat(points)
        ids = torch.cat(seg_ids)
        data_x = x_range[0] + pts[:, 0] / (width - 1) * (x_range[1] - x_range[0])
        data_y = y_range[1] - pts[:, 1] / (height - 1) * (y_range[1] - y_range[0])
        return torch.stack([data_x, data_y], dim=-1), ids


def model():
    torch.manual_seed(13)
    return LineChartDigitizer().eval()


def _chart(h, w, curve=True, gaps=(), specks=(), legend_cols=()):
    img = torch.full((h, w), 0.95)
    if curve:
        for x in range(w):
            if any(a <= x < b for a, b in gaps):
                continue
            y = int(h / 2 + (h / 3) * math.sin(2 * math.pi * x / w))
            img[y:y + 2, x] = 0.1
    for x, y in specks:
        img[y:y + 2, x:x + 2] = 0.1
    for x in legend_cols:
        img[3:h - 3, x] = 0.2
    return img


_AXES = (torch.tensor([1990.0, 2020.0]), torch.tensor([0.0, 250.0]))


def example_inputs():
    return (_chart(60, 120, gaps=[(50, 58), (90, 92)], legend_cols=[100]), *_AXES)


def dynamic_shapes():
    return ({0: Dim("height", min=8, max=1024), 1: Dim("width", min=8, max=2048)}, None, None)


def verify_inputs():
    return [
        # long gap splits the curve, short gap does not, a gridline column gives no point
        example_inputs(),
        # empty plot box: no ink anywhere -> early return with no points
        (_chart(40, 30, curve=False), *_AXES),
        # only specks of dust (segments shorter than min_points are dropped) -> no points
        (_chart(40, 50, curve=False, specks=[(10, 5), (30, 20)]), *_AXES),
        # very wide scan: pooled to half width; one continuous curve, a dust speck above it
        # makes one column unusable (tall ink span) without splitting the curve
        (_chart(48, 600, specks=[(580, 2)]), *_AXES),
    ]
