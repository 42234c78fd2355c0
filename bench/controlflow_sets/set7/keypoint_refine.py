"""Pose post-processing: resize heatmaps when their width differs (dynamic W), per-keypoint
argmax with confidence branch and sub-pixel refinement in a helper method.

Branch on a dynamic size, loop over a static number of keypoints (stays Python),
if/else on .item()-free tensor comparisons inside a helper, ternary on a tensor.
"""

import torch
import torch.nn.functional as F
from torch import nn

K = 5


class KeypointHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.head = nn.Conv2d(16, K, 3, padding=1)
        self.out_w = 32
        self.conf = 0.6

    def refine(self, hm):
        h, w = hm.shape
        idx = hm.flatten().argmax()
        y, x = idx // w, idx % w
        peak = hm[y, x]
        if peak < self.conf:
            return torch.stack([peak * 0 - 1.0, peak * 0 - 1.0, peak])
        xl, xr = hm[y, (x - 1).clamp_min(0)], hm[y, (x + 1).clamp_max(w - 1)]
        dx = 0.25 if xr > xl else -0.25
        return torch.stack([x.float() + dx, y.float(), peak])

    def forward(self, feat):
        hm = torch.sigmoid(self.head(feat))
        if hm.shape[-1] != self.out_w:
            hm = F.interpolate(hm, size=(hm.shape[-2], self.out_w), mode="bilinear", align_corners=False)
        pts = []
        for k in range(K):
            pts.append(self.refine(hm[0, k]))
        return torch.stack(pts)


def model():
    torch.manual_seed(0)
    return KeypointHead().eval()


def example_inputs():
    torch.manual_seed(1)
    return (torch.randn(1, 16, 24, 32),)


def dynamic_shapes():
    return ({3: torch.export.Dim("width", min=8, max=96)},)


def verify_inputs():
    torch.manual_seed(5)
    x = torch.randn(1, 16, 24, 32)
    return [
        (x,),  # width == out_w: no resize; mixed confident keypoints and sub-pixel directions
        (torch.randn(1, 16, 24, 48) * 3,),  # wider: resize branch
        (torch.zeros(1, 16, 24, 32),),  # flat heatmaps (sigmoid(bias) ~ 0.5): low-confidence branch
        (x * 50.0,),
    ]
