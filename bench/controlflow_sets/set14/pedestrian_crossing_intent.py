"""Pedestrian crossing intent from a tracked pedestrian: per-frame pose keypoints + bbox.
Occluded (tiny) detections are skipped; once the person steps over the curb line the
loop stops and intent is certain."""

import torch
from torch import nn

HIDDEN = 48
CURB_Y = 0.95


class CrossingIntent(nn.Module):
    def __init__(self):
        super().__init__()
        self.pose = nn.Linear(34, HIDDEN)
        self.box = nn.Linear(4, HIDDEN)
        self.cell = nn.GRUCell(HIDDEN, HIDDEN)
        self.head = nn.Linear(HIDDEN, 1)

    def forward(self, kpts: torch.Tensor, bbox: torch.Tensor):
        # kpts: (1, T, 34) normalised; bbox: (1, T, 4) = x, y, w, h in image coords
        h = torch.zeros(1, HIDDEN)
        entered = torch.zeros(1)
        seen = torch.zeros(1)
        for t in range(kpts.shape[1]):
            if bbox[0, t, 3] < 0.05:
                continue  # detection too small / occluded
            feat = torch.relu(self.pose(kpts[:, t]) + self.box(bbox[:, t]))
            h = self.cell(feat, h)
            seen = seen + 1.0
            if bbox[0, t, 1] + bbox[0, t, 3] > CURB_Y:
                entered = torch.ones(1)
                break
        prob = torch.sigmoid(self.head(h)).squeeze(-1)
        if entered.sum() > 0.5:
            prob = torch.ones(1)
        return prob, seen


def model() -> nn.Module:
    torch.manual_seed(0)
    return CrossingIntent().eval()


def _inputs(T, occluded=(), enter_at=None, seed=0):
    g = torch.Generator().manual_seed(seed)
    kpts = torch.randn(1, T, 34, generator=g) * 0.3
    bbox = torch.zeros(1, T, 4)
    bbox[0, :, 0] = 0.4 + 0.01 * torch.arange(T)
    bbox[0, :, 1] = 0.5
    bbox[0, :, 2] = 0.1
    bbox[0, :, 3] = 0.3
    for t in occluded:
        bbox[0, t, 3] = 0.02
    if enter_at is not None:
        bbox[0, enter_at:, 1] = 0.7
    return kpts, bbox


def example_inputs() -> tuple:
    return _inputs(8, occluded=(2,), seed=0)


def dynamic_shapes():
    t = torch.export.Dim("frames", min=4, max=64)
    return ({1: t}, {1: t})


def verify_inputs() -> list:
    return [
        _inputs(16, occluded=(1, 5), enter_at=9, seed=1),  # steps onto road -> break
        _inputs(4, seed=2),                                 # short track, walks along kerb
        _inputs(30, occluded=(0,), enter_at=0, seed=3),     # occluded then immediately on road
        _inputs(64, occluded=tuple(range(0, 64, 7)), seed=4),
    ]
