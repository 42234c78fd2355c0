"""Traffic-sign detector post-processing with class-specific score thresholds.

Input: raw head outputs for N anchors, (N, 4 + C) = box deltas + class logits, and the
anchor boxes (N, 4). Each class has its own confidence threshold (small signs such as
'no entry' are trusted earlier than 'speed limit'). Returns the kept boxes, scores and
classes; the number of detections is data dependent, capped by max_det.
"""
import torch
from torch import nn

NUM_CLASSES = 6


class SignPostprocess(nn.Module):
    def __init__(self):
        super().__init__()
        self.refine = nn.Linear(4 + NUM_CLASSES, 4 + NUM_CLASSES)
        self.register_buffer("thresholds", torch.tensor([0.50, 0.55, 0.60, 0.45, 0.70, 0.65]))
        self.max_det = 8

    def forward(self, raw: torch.Tensor, anchors: torch.Tensor):
        raw = raw + 0.1 * self.refine(raw)
        deltas, logits = raw[:, :4], raw[:, 4:]
        cls = torch.argmax(logits, dim=1)
        best_logit = logits.max(dim=1).values
        score = torch.sigmoid(best_logit)
        keep = score > self.thresholds[cls]
        if not keep.any():
            return torch.zeros(0, 4), torch.zeros(0), torch.zeros(0, dtype=torch.long)
        wh = anchors[:, 2:] - anchors[:, :2]
        ctr = (anchors[:, 2:] + anchors[:, :2]) / 2 + deltas[:, :2] * wh * 0.1
        wh = wh * torch.exp(deltas[:, 2:].clamp(-2.0, 2.0) * 0.2)
        boxes = torch.cat([ctr - wh / 2, ctr + wh / 2], dim=1)
        boxes, score, cls, best_logit = boxes[keep], score[keep], cls[keep], best_logit[keep]
        if boxes.shape[0] > self.max_det:
            top = torch.topk(best_logit, self.max_det).indices  # rank on logits (monotone)
            boxes, score, cls = boxes[top], score[top], cls[top]
        return boxes, score, cls


def model():
    torch.manual_seed(2)
    return SignPostprocess().eval()


def _det(seed, n, bias):
    g = torch.Generator().manual_seed(seed)
    raw = torch.randn(n, 4 + NUM_CLASSES, generator=g)
    raw = torch.cat([raw[:, :4], raw[:, 4:] * 1.5 + bias], dim=1)
    xy = torch.rand(n, 2, generator=g) * 600
    anchors = torch.cat([xy, xy + 16 + torch.rand(n, 2, generator=g) * 48], dim=1)
    return raw, anchors


def example_inputs():
    return _det(0, 40, -2.0)


def dynamic_shapes():
    n = torch.export.Dim("N", min=2, max=5000)
    return ({0: n}, {0: n})


def verify_inputs():
    return [_det(1, 30, -6.0), _det(2, 200, -1.0), _det(3, 12, -2.5), _det(4, 2, 0.0)]
