"""Single-stage detector post-processing: sigmoid class scores, score
threshold, keep the best `max_det` candidates, decode anchor-relative deltas
(with a small learned refinement), clip to the image and drop degenerate boxes."""
import math

import torch
import torch.nn as nn


class DeltaRefiner(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, d):
        return d + 0.05 * torch.tanh(self.fc(d))


def decode_boxes(deltas, anchors, max_log_scale):
    cx = anchors[:, 0] + deltas[:, 0] * anchors[:, 2]
    cy = anchors[:, 1] + deltas[:, 1] * anchors[:, 3]
    w = anchors[:, 2] * deltas[:, 2].clamp(max=max_log_scale).exp()
    h = anchors[:, 3] * deltas[:, 3].clamp(max=max_log_scale).exp()
    return torch.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], dim=1)


class BoxDecoderFilter(nn.Module):
    def __init__(self, score_thr=0.3, max_det=4, img_w=64.0, img_h=48.0, min_size=1.0):
        super().__init__()
        self.refiner = DeltaRefiner()
        self.score_thr = score_thr
        self.max_det = max_det
        self.img_w, self.img_h = img_w, img_h
        self.min_size = min_size
        self.max_log_scale = math.log(1000.0 / 16)

    def forward(self, cls_logits, deltas, anchors):
        scores = cls_logits.sigmoid()
        best, labels = scores.max(dim=1)
        keep = best > self.score_thr
        if not keep.any():
            return (torch.zeros(0, 4), torch.zeros(0), torch.zeros(0, dtype=torch.long))
        idx = keep.nonzero().squeeze(1)
        if idx.numel() > self.max_det:
            top = best[idx].topk(self.max_det).indices
            idx = idx[top]
        boxes = decode_boxes(self.refiner(deltas[idx]), anchors[idx], self.max_log_scale)
        boxes = torch.stack([boxes[:, 0].clamp(0, self.img_w), boxes[:, 1].clamp(0, self.img_h),
                             boxes[:, 2].clamp(0, self.img_w), boxes[:, 3].clamp(0, self.img_h)], 1)
        wh = boxes[:, 2:] - boxes[:, :2]
        valid = (wh > self.min_size).all(dim=1)
        return boxes[valid], best[idx][valid], labels[idx][valid]


def model():
    torch.manual_seed(0)
    return BoxDecoderFilter().eval()


def _candidates(n, seed, shift=0.0):
    g = torch.Generator().manual_seed(seed)
    # distinct top logits on a 0.5 grid, the other classes clearly below
    grid = torch.arange(n, dtype=torch.float32) * 0.5 - 2.3 + shift
    top = grid[torch.randperm(n, generator=g)]
    cls = torch.randint(0, 3, (n,), generator=g)
    logits = top.unsqueeze(1) - 1.0 - torch.rand(n, 3, generator=g)
    logits[torch.arange(n), cls] = top
    deltas = (torch.rand(n, 4, generator=g) - 0.5) * 0.4
    cx = torch.randint(-4, 68, (n,), generator=g).float()
    cy = torch.randint(-4, 52, (n,), generator=g).float()
    wh = torch.randint(4, 17, (n, 2), generator=g).float()
    anchors = torch.cat([cx.unsqueeze(1), cy.unsqueeze(1), wh], dim=1)
    return logits, deltas, anchors


def example_inputs():
    return _candidates(8, 0)


def dynamic_shapes():
    n = torch.export.Dim("anchors", min=2, max=512)
    return ({0: n}, {0: n}, {0: n})


def verify_inputs():
    return [
        _candidates(5, 1, shift=-3.0),
        _candidates(12, 2, shift=0.5),
        _candidates(3, 3, shift=1.5),
    ]
