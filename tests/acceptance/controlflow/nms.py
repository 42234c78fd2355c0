"""Greedy non-maximum suppression over a dynamic number of candidate boxes, with a detection cap."""

import torch
from torch import nn


def box_iou(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    lt = torch.max(a[:, None, :2], b[None, :, :2])
    rb = torch.min(a[:, None, 2:], b[None, :, 2:])
    wh = (rb - lt).clamp(min=0)
    inter = wh[..., 0] * wh[..., 1]
    return inter / (area_a[:, None] + area_b[None, :] - inter + 1e-6)


class NMSHead(nn.Module):
    def __init__(self, iou_thr: float = 0.5, score_thr: float = 0.3, max_det: int = 4):
        super().__init__()
        self.score = nn.Linear(8, 1)
        self.iou_thr = iou_thr
        self.score_thr = score_thr
        self.max_det = max_det

    def forward(self, boxes_cxcywh: torch.Tensor, feats: torch.Tensor) -> tuple:
        scores = torch.sigmoid(self.score(feats)).squeeze(-1)
        cxcy, wh = boxes_cxcywh[:, :2], boxes_cxcywh[:, 2:].abs() + 0.05
        boxes = torch.cat([cxcy - wh / 2, cxcy + wh / 2], dim=-1)
        order = scores.argsort(descending=True)
        boxes, scores = boxes[order], scores[order]
        n = boxes.shape[0]
        idx = torch.arange(n)
        keep = scores > self.score_thr
        for i in range(n):
            if not keep[i]:
                continue
            iou = box_iou(boxes[i : i + 1], boxes)[0]
            keep = keep & ~((iou > self.iou_thr) & (idx > i))
            if keep[: i + 1].sum() >= self.max_det:
                keep = keep & (idx <= i)
                break
        return boxes * keep.unsqueeze(-1), scores * keep


def model() -> nn.Module:
    torch.manual_seed(0)
    return NMSHead()


def example_inputs() -> tuple:
    torch.manual_seed(1)
    return (torch.rand(12, 4), torch.randn(12, 8))


def dynamic_shapes():
    n = torch.export.Dim("n", min=2, max=64)
    return ({0: n}, {0: n})


def verify_inputs() -> list:
    torch.manual_seed(2)
    spread = torch.rand(30, 4) * torch.tensor([10.0, 10.0, 0.5, 0.5])
    return [(spread, torch.randn(30, 8) * 3), (torch.rand(3, 4), torch.randn(3, 8))]
