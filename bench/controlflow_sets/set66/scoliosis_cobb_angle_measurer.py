"""Scoliosis Cobb angle from vertebra corner landmarks (spine X-ray keypoint head output).

Input: 4 corners per visible vertebra (upper-left, upper-right, lower-left, lower-right) in
pixels, top to bottom. A small refinement layer nudges the landmarks, the most tilted upper
and lower endplates give the Cobb angle, which is then graded. The convexity side is found
from the apex vertebra between the two end vertebrae.

Kind: T.  Constructs: 1, 2, 7, 8.
"""
import math

import torch
import torch.nn as nn
from torch.export import Dim


def endplate_tilt(left, right):
    d = right - left
    return torch.rad2deg(torch.atan2(d[..., 1], d[..., 0]))


def convex_side(centers, top, bottom):
    """+1 if the curve bulges to the image right between the end vertebrae, else -1."""
    lo = int(torch.minimum(top, bottom))
    hi = int(torch.maximum(top, bottom))
    seg = centers[lo:hi + 1]
    chord_x = (seg[0, 0] + seg[-1, 0]) / 2
    deviation = seg[:, 0] - chord_x
    apex = deviation[deviation.abs().argmax()]
    return torch.ones(()) if apex > 0 else -torch.ones(())


class CobbAngleMeasurer(nn.Module):
    def __init__(self, min_vertebrae=5):
        super().__init__()
        self.min_vertebrae = min_vertebrae
        self.refine = nn.Linear(8, 8)

    def forward(self, corners):
        n = corners.shape[0]
        if n < self.min_vertebrae:
            # too little of the spine is visible to measure a curve
            return torch.zeros(()), torch.zeros((), dtype=torch.long), torch.zeros(())
        pts = corners + 0.5 * torch.tanh(self.refine(corners.reshape(n, 8) / 100.0)).reshape(n, 4, 2)
        upper = endplate_tilt(pts[:, 0], pts[:, 1])
        lower = endplate_tilt(pts[:, 2], pts[:, 3])
        top = torch.argmax(upper)
        bottom = torch.argmin(lower)
        cobb = (upper[top] - lower[bottom]).abs()
        if cobb < 10:
            grade = torch.tensor(0)   # spinal asymmetry, not scoliosis
        elif cobb < 25:
            grade = torch.tensor(1)   # mild: observe
        elif cobb < 40:
            grade = torch.tensor(2)   # moderate: brace
        else:
            grade = torch.tensor(3)   # severe: surgical referral
        centers = pts.mean(dim=1)
        side = convex_side(centers, top, bottom)
        return cobb, grade, side


def model():
    torch.manual_seed(1)
    return CobbAngleMeasurer().eval()


def _spine(n, amp_deg, shift=0.0):
    """Synthetic spine: vertebra k tilted by amp*sin(pi*k/(n-1)+shift), laterally displaced."""
    out = []
    for k in range(n):
        phase = math.pi * k / max(n - 1, 1) + shift
        tilt = math.radians(amp_deg * math.sin(phase) * math.cos(phase) * 2)
        cx = 300.0 + 4.0 * amp_deg * math.sin(phase)
        cy = 100.0 + 60.0 * k
        w, h = 40.0, 25.0
        c, s = math.cos(tilt), math.sin(tilt)
        pts = []
        for dx, dy in ((-w / 2, -h / 2), (w / 2, -h / 2), (-w / 2, h / 2), (w / 2, h / 2)):
            pts.append([cx + c * dx - s * dy, cy + s * dx + c * dy])
        out.append(pts)
    return torch.tensor(out)


def example_inputs():
    return (_spine(12, 16.0),)


def dynamic_shapes():
    return ({0: Dim("vertebrae", min=2, max=24)},)


def verify_inputs():
    return [
        # moderate curve bulging right (grade 2 branch, apex > 0)
        example_inputs(),
        # only 3 vertebrae visible: early return
        (_spine(3, 10.0),),
        # nearly straight spine: grade 0, curve bulging left (apex < 0)
        (_spine(18, -1.5),),
        # mild curve (grade 1)
        (_spine(10, 6.0),),
        # severe curve, left side (grade 3, apex < 0)
        (_spine(20, -25.0),),
    ]
