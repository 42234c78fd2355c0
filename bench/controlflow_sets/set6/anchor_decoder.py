"""Anchor-based box decoding head (e.g. a face detector): k = min(top_k, number of anchors) on a
dynamic anchor count, early return when nothing passes the threshold, a clip config flag, and a
gather of the selected boxes."""

import torch
from torch import nn


class AnchorDecoder(nn.Module):
    def __init__(self, top_k: int = 16, thr: float = 0.5, clip: bool = True):
        super().__init__()
        self.cls = nn.Conv1d(8, 1, 1)
        self.reg = nn.Conv1d(8, 4, 1)
        self.top_k = top_k
        self.thr = thr
        self.clip = clip

    def forward(self, feats: torch.Tensor, anchors: torch.Tensor) -> tuple:
        # feats: [1, 8, N], anchors: [N, 4] as (cx, cy, w, h)
        scores = torch.sigmoid(self.cls(feats))[0, 0]
        deltas = self.reg(feats)[0].t()
        k = min(self.top_k, anchors.shape[0])
        top, idx = scores.topk(k)
        if (top < self.thr).all():
            return torch.zeros(k, 4), torch.zeros(k)
        a = anchors[idx]
        d = deltas[idx]
        cxcy = a[:, :2] + d[:, :2] * a[:, 2:]
        wh = a[:, 2:] * torch.exp(d[:, 2:].clamp(max=4.0))
        boxes = torch.cat([cxcy - wh / 2, cxcy + wh / 2], dim=1)
        if self.clip:
            boxes = boxes.clamp(0.0, 1.0)
        return boxes * (top >= self.thr)[:, None], top


def model() -> nn.Module:
    torch.manual_seed(0)
    return AnchorDecoder().eval()


def _anchors(n: int, g: torch.Generator) -> torch.Tensor:
    return torch.cat([torch.rand(n, 2, generator=g), torch.rand(n, 2, generator=g) * 0.2 + 0.05], dim=1)


def example_inputs() -> tuple:
    g = torch.Generator().manual_seed(1)
    return (torch.randn(1, 8, 40, generator=g), _anchors(40, g))


def dynamic_shapes():
    n = torch.export.Dim("anchors", min=2, max=2000)
    return ({2: n}, {0: n})


def verify_inputs() -> list:
    g = torch.Generator().manual_seed(18)
    w = model().cls.weight.detach()[0, :, 0]
    low = (-5.0 * w.sign())[None, :, None].expand(1, 8, 50).clone()
    return [
        (low, _anchors(50, g)),  # nothing above threshold: early return, N > top_k
        (torch.randn(1, 8, 6, generator=g) * 3, _anchors(6, g)),  # N < top_k
        (torch.randn(1, 8, 300, generator=g) * 3, _anchors(300, g)),  # N > top_k, detections
    ]
