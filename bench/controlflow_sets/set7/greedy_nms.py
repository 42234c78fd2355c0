"""Detection post-processing: score threshold + greedy NMS written as a while loop.

while on a tensor predicate ((active).any()), break when max detections reached (tensor count).
Returns a keep mask so the output shape is fixed by the number of boxes (dynamic N).
"""

import torch
from torch import nn


def box_iou(box, boxes):
    x1 = torch.maximum(box[0], boxes[:, 0])
    y1 = torch.maximum(box[1], boxes[:, 1])
    x2 = torch.minimum(box[2], boxes[:, 2])
    y2 = torch.minimum(box[3], boxes[:, 3])
    inter = (x2 - x1).clamp_min(0) * (y2 - y1).clamp_min(0)
    area = (box[2] - box[0]) * (box[3] - box[1])
    areas = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    return inter / (area + areas - inter + 1e-9)


class DetectorHead(nn.Module):
    def __init__(self, score_thresh=0.3, iou_thresh=0.5, max_det=4):
        super().__init__()
        self.score = nn.Linear(8, 1)
        self.score_thresh = score_thresh
        self.iou_thresh = iou_thresh
        self.max_det = max_det

    def forward(self, boxes, feats):
        scores = torch.sigmoid(self.score(feats).squeeze(-1))
        active = scores > self.score_thresh
        keep = torch.zeros_like(scores)
        while active.any():
            masked = torch.where(active, scores, torch.full_like(scores, -1.0))
            i = masked.argmax()
            keep = keep + (torch.arange(scores.shape[0]) == i).float()
            if keep.sum() >= self.max_det:
                break
            ious = box_iou(boxes[i], boxes)
            active = active & (ious <= self.iou_thresh)
            active[i] = False
        return keep * scores


def make_boxes(n, spread, seed):
    g = torch.Generator().manual_seed(seed)
    xy = torch.rand(n, 2, generator=g) * spread
    wh = torch.rand(n, 2, generator=g) * 10 + 5
    return torch.cat([xy, xy + wh], dim=1)


def model():
    torch.manual_seed(0)
    return DetectorHead().eval()


def example_inputs():
    return (make_boxes(12, 50.0, 1), torch.randn(12, 8))


def dynamic_shapes():
    n = torch.export.Dim("num_boxes", min=2, max=300)
    return ({0: n}, {0: n})


def verify_inputs():
    m = model()
    w, b = m.score.weight.detach()[0], m.score.bias.detach()[0]
    hi = (w * (4.0 - b) / w.pow(2).sum()).expand(20, 8).clone()  # logit 4 -> score 0.98
    lo = (w * (-4.0 - b) / w.pow(2).sum()).expand(20, 8).clone()  # logit -4 -> score 0.02
    return [
        (make_boxes(10, 50.0, 2), lo[:10]),  # nothing above threshold: zero iterations
        (make_boxes(3, 200.0, 3), hi[:3]),  # 3 separated boxes: loop ends when inactive
        (make_boxes(20, 300.0, 4), hi),  # many separated boxes: break at max_det
        (make_boxes(6, 2.0, 5), hi[:6]),  # heavy overlap: suppression empties the set
    ]
