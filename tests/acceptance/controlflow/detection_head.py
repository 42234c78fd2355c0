"""Detection head post-step: the score statistics pick one of three box refinements (if/elif/else on .item())."""

import torch
from torch import nn


class DetHead(nn.Module):
    def __init__(self, c=8, anchors=3):
        super().__init__()
        self.cls = nn.Conv2d(c, anchors, 1)
        self.box = nn.Conv2d(c, anchors * 4, 1)

    def forward(self, feat):
        scores = torch.sigmoid(self.cls(feat))
        boxes = self.box(feat)
        top = scores.max().item()
        if top > 0.95:
            boxes = boxes * 2.0
            scores = scores.clamp(min=0.5)
        elif top > 0.6:
            boxes = torch.tanh(boxes)
        else:
            boxes = torch.zeros_like(boxes)
            scores = scores * 0.0
        return scores.flatten(1), boxes.flatten(1)


def model():
    torch.manual_seed(0)
    return DetHead()


def example_inputs():
    return (torch.randn(1, 8, 6, 6),)


def dynamic_shapes():
    h = torch.export.Dim("h", min=2, max=32)
    w = torch.export.Dim("w", min=2, max=32)
    return ({2: h, 3: w},)


def verify_inputs():
    return [
        (torch.randn(1, 8, 6, 6) * 20,),
        (torch.zeros(1, 8, 4, 5) - 0.0,),
        (torch.randn(1, 8, 3, 3) * 0.01 - 30,),
    ]
