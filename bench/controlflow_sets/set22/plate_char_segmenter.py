"""Parking-gate license plate reader: split a plate crop into character boxes from the
column ink profile (pads the width to the pooling stride first)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class PlateCharSegmenter(nn.Module):
    def __init__(self, pool=4, ink_thr=0.25, min_width=2, max_chars=6):
        super().__init__()
        self.pool = pool
        self.ink_thr = ink_thr
        self.min_width = min_width
        self.max_chars = max_chars

    def forward(self, gray):
        width = gray.shape[1]
        if width % self.pool != 0:
            gray = F.pad(gray, (0, self.pool - width % self.pool), value=1.0)
        ink = (1.0 - gray).mean(0)
        cols = ink.reshape(-1, self.pool).mean(1)
        boxes = []
        in_char = False
        start = 0
        for c in range(cols.shape[0]):
            dark = cols[c] > self.ink_thr
            if dark and not in_char:
                in_char = True
                start = c
            elif in_char and not dark:
                in_char = False
                if c - start >= self.min_width:
                    boxes.append(torch.tensor([start * self.pool, c * self.pool]))
                    if len(boxes) == self.max_chars:
                        break
        if in_char and len(boxes) < self.max_chars:
            boxes.append(torch.tensor([start * self.pool, cols.shape[0] * self.pool]))
        out = torch.full((self.max_chars, 2), -1, dtype=torch.long)
        if len(boxes) > 0:
            out = torch.cat([torch.stack(boxes), out[len(boxes):]])
        return out, torch.tensor(len(boxes)), cols


def model():
    return PlateCharSegmenter().eval()


def _plate(width, chars):
    # white plate (0.95) with dark strokes (0.3) covering rows 3..12; chars = (x0, w) in pixels
    img = torch.full((16, width), 0.95)
    for x0, w in chars:
        img[3:13, x0:x0 + w] = 0.3
    return (img,)


def example_inputs():
    return _plate(50, [(4, 8), (16, 12), (32, 4), (40, 8)])


def dynamic_shapes():
    return ({1: torch.export.Dim("width", min=2, max=512)},)


def verify_inputs():
    return [
        _plate(30, []),                                                            # blank plate
        _plate(96, [(0, 8), (12, 8), (24, 8), (36, 8), (48, 8), (60, 8), (72, 8), (84, 8)]),  # too many
        _plate(64, [(8, 8), (24, 12), (52, 12)]),                                  # char touches the edge
    ]
