"""SSD-style detection post-processing: score threshold early return, top-k candidates, then greedy
NMS over the candidates with `continue` on already-suppressed boxes (tensor condition)."""

import torch
from torch import nn


def box_iou(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    lt = torch.maximum(a[:, None, :2], b[None, :, :2])
    rb = torch.minimum(a[:, None, 2:], b[None, :, 2:])
    wh = (rb - lt).clamp(min=0)
    inter = wh[..., 0] * wh[..., 1]
    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    return inter / (area_a[:, None] + area_b[None, :] - inter + 1e-6)


class NMSHead(nn.Module):
    def __init__(self, k: int = 8, score_thr: float = 0.3, iou_thr: float = 0.5):
        super().__init__()
        self.score = nn.Linear(16, 1)
        self.k = k
        self.score_thr = score_thr
        self.iou_thr = iou_thr

    def forward(self, feats: torch.Tensor, boxes: torch.Tensor) -> torch.Tensor:
        # feats: [N, 16], boxes: [N, 4] (x1, y1, x2, y2), N >= k
        scores = torch.sigmoid(self.score(feats)).squeeze(-1)
        if scores.max() < self.score_thr:
            return torch.zeros(self.k, 5)
        top, idx = scores.topk(self.k)
        cand = boxes[idx]
        iou = box_iou(cand, cand)
        keep = top > self.score_thr
        for i in range(self.k):
            if not keep[i]:
                continue
            later = torch.arange(self.k) > i
            keep = keep & ~(later & (iou[i] > self.iou_thr))
        return torch.cat([cand, top[:, None]], dim=1) * keep[:, None].float()


def model() -> nn.Module:
    torch.manual_seed(0)
    return NMSHead().eval()


def _boxes(n: int, g: torch.Generator, spread: float) -> torch.Tensor:
    xy = torch.rand(n, 2, generator=g) * spread
    wh = torch.rand(n, 2, generator=g) * 20 + 10
    return torch.cat([xy, xy + wh], dim=1)


def example_inputs() -> tuple:
    g = torch.Generator().manual_seed(1)
    return (torch.randn(20, 16, generator=g), _boxes(20, g, 100.0))


def dynamic_shapes():
    n = torch.export.Dim("anchors", min=8, max=512)
    return ({0: n}, {0: n})


def verify_inputs() -> list:
    g = torch.Generator().manual_seed(4)
    m = model()
    w = m.score.weight.detach()[0]
    low = -10.0 * w.sign().expand(12, 16).clone()  # every score ~0: early return
    high = 10.0 * w.sign().expand(30, 16).clone() + 0.1 * torch.randn(30, 16, generator=g)
    return [
        (low, _boxes(12, g, 100.0)),
        (high, _boxes(30, g, 5.0)),  # all scores high, heavily overlapping boxes: suppression
        (torch.randn(40, 16, generator=g) * 3, _boxes(40, g, 300.0)),  # some below threshold: continue
    ]
