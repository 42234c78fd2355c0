"""Pedestrian-detector post-processing: score calibration and greedy NMS.

While any candidate above the score threshold remains, the best one is kept
and overlapping boxes are suppressed; decoding stops early once the best
remaining score falls into the low-confidence tail. Output: kept indices [K]
and boxes [K, 4] (K may be 0).
"""
import torch
import torch.nn as nn


def box_iou(box, boxes):
    lt = torch.maximum(box[:2], boxes[:, :2])
    rb = torch.minimum(box[2:], boxes[:, 2:])
    inter = (rb - lt).clamp(min=0).prod(1)
    area = lambda b: (b[..., 2] - b[..., 0]) * (b[..., 3] - b[..., 1])  # noqa: E731 (as the checker wrote it)
    return inter / (area(box) + area(boxes) - inter)


class PedestrianNms(nn.Module):
    def __init__(self, score_thr=0.3, stop_score=0.4, iou_thr=0.5):
        super().__init__()
        self.score_thr, self.stop_score, self.iou_thr = score_thr, stop_score, iou_thr
        self.calib = nn.Linear(1, 1)

    def forward(self, boxes, logits):  # boxes: [N, 4] xyxy; logits: [N]
        scores = torch.sigmoid(logits + 0.1 * self.calib(logits.unsqueeze(1)).squeeze(1))
        remaining = scores > self.score_thr
        keep = []
        while remaining.any():
            i = torch.where(remaining, scores, torch.full_like(scores, -1.0)).argmax()
            if scores[i] < self.stop_score:
                break
            keep.append(i)
            remaining = remaining & (box_iou(boxes[i], boxes) < self.iou_thr)
            remaining = remaining & (torch.arange(scores.shape[0]) != i)
        if len(keep) == 0:
            return torch.zeros(0, dtype=torch.long), torch.zeros(0, 4)
        idx = torch.stack(keep)
        return idx, boxes[idx]


def _dets(centers, logits):
    c = torch.tensor(centers, dtype=torch.float32)
    wh = torch.tensor([2.0, 4.0])
    return torch.cat([c - wh / 2, c + wh / 2], 1), torch.tensor(logits)


def model():
    torch.manual_seed(0)
    return PedestrianNms().eval()


def example_inputs():
    return _dets([[0, 0], [0.3, 0.2], [5, 5], [5.2, 5.5], [10, 1]], [2.0, 1.2, 1.6, 0.3, -0.1])


def dynamic_shapes():
    N = torch.export.Dim("dets", min=2, max=100)
    return ({0: N}, {0: N})


def verify_inputs():
    return [
        _dets([[0, 0], [3, 3], [6, 6]], [-3.0, -2.5, -2.0]),                          # nothing above threshold
        _dets([[0, 0], [4, 0], [8, 0], [12, 0], [0.2, 0.3]], [2.5, 1.9, 1.3, 0.7, 0.9]),  # all kept but one
        _dets([[0, 0], [6, 0], [12, 0]], [-0.1, -0.3, -0.6]),                           # low-confidence tail stops decoding
    ]
