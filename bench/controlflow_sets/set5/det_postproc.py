"""Detection post-processing: early return when nothing passes the score threshold."""

import torch
from torch import nn


class DetPost(nn.Module):
    def __init__(self, c=16, num_cls=4):
        super().__init__()
        self.cls = nn.Linear(c, num_cls)
        self.box = nn.Linear(c, 4)
        self.score_thresh = 0.5

    def forward(self, feats):
        scores = self.cls(feats).sigmoid()
        boxes = self.box(feats)
        best, _ = scores.max(-1)
        keep = best > self.score_thresh
        if not keep.any():
            return torch.zeros_like(boxes), torch.zeros_like(best)
        if best.max().item() > 0.95:
            boxes = boxes * 1.0
            best = best.clamp(max=0.95)
        boxes = torch.where(keep[..., None], boxes, torch.zeros_like(boxes))
        best = best * keep.float()
        return boxes, best


def model():
    torch.manual_seed(0)
    return DetPost()


def example_inputs():
    torch.manual_seed(2)
    return (torch.randn(10, 16),)


def dynamic_shapes():
    return ({0: torch.export.Dim("n", min=2, max=200)},)


def verify_inputs():
    m = model()
    W, b = m.cls.weight.detach(), m.cls.bias.detach()
    lo = torch.linalg.pinv(W) @ (torch.full((4,), -8.0) - b)
    hi = torch.linalg.pinv(W) @ (torch.full((4,), 8.0) - b)
    return [(lo.repeat(5, 1),), (hi.repeat(7, 1),), (torch.randn(12, 16) * 0.1,)]
