"""COCO-style run-length encoder for instance-segmentation masks, with a learned mask-quality score.

Kind X. Constructs: 1, 2, 5, 6, 8.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim


class MaskRLE(nn.Module):
    def __init__(self, max_pixels=256, min_run=2):
        super().__init__()
        self.max_pixels = max_pixels
        self.min_run = min_run
        self.quality = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.ReLU(),
                                     nn.AdaptiveAvgPool2d(2), nn.Flatten(), nn.Linear(16, 1))

    def forward(self, logits):
        # logits: (H, W) mask logits from the segmentation head
        if logits.shape[0] * logits.shape[1] > self.max_pixels:
            logits = F.max_pool2d(logits[None, None], 2)[0, 0]
        mask = (logits > 0).to(torch.int64)
        flat = mask.t().reshape(-1)  # column-major like pycocotools
        if mask.sum() == 0:
            # empty instance: single background run
            return torch.tensor([flat.shape[0]]), torch.zeros(())
        runs = []
        cur = torch.tensor(0)
        length = torch.tensor(0)
        for i in range(flat.shape[0]):
            v = flat[i]
            if v == cur:
                length = length + 1
                continue
            runs.append(length)
            cur = v
            length = torch.tensor(1)
        runs.append(length)
        counts = torch.stack(runs)
        # speckle: a foreground run shorter than min_run lowers the quality score
        speckle = torch.zeros(())
        for k in range(1, counts.shape[0], 2):
            if counts[k] < self.min_run:
                speckle = speckle + 1
        q = torch.sigmoid(self.quality(logits[None, None]))[0, 0] / (1 + speckle)
        return counts, q


def model():
    torch.manual_seed(203)
    return MaskRLE().eval()


def _mask(h, w, boxes):
    m = torch.full((h, w), -3.0)
    for (r0, r1, c0, c1) in boxes:
        m[r0:r1, c0:c1] = 4.0
    return m


def example_inputs():
    return (_mask(12, 10, [(2, 8, 3, 7), (10, 11, 0, 1)]),)


def dynamic_shapes():
    return ({0: Dim("h", min=4, max=48), 1: Dim("w", min=4, max=48)},)


def verify_inputs():
    return [
        example_inputs(),                        # two blobs, speckle run of length 1
        (_mask(4, 4, []),),                      # empty mask -> early return
        (_mask(48, 40, [(0, 48, 0, 8)]),),       # big -> downsampled, starts with foreground (0-length first run)
        (_mask(6, 5, [(0, 6, 0, 5)]),),          # all foreground
    ]
