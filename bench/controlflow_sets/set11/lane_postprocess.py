"""Lane detection post-processing (row-anchor style) for a dashcam board.

The network head gives, for each lane and each row anchor, logits over column cells. For every row
the expected column is taken where the head is confident; rows with low confidence or a jump too
far from the previous point are skipped, and lanes with too few points are dropped (-1).
Typical: for over a dynamic size (rows), continue on tensor conditions, and/or, loop over a static
number of lanes, list append + stack.
"""
import torch
from torch import nn


class LanePostProcess(nn.Module):
    def __init__(self, num_lanes: int = 2, num_cols: int = 24):
        super().__init__()
        self.num_lanes = num_lanes
        self.refine = nn.Conv2d(num_lanes, num_lanes, 1)
        with torch.no_grad():
            self.refine.weight.copy_(torch.eye(num_lanes).reshape(num_lanes, num_lanes, 1, 1)
                                     + 0.01 * torch.randn(num_lanes, num_lanes, 1, 1))
            self.refine.bias.zero_()
        self.register_buffer("cols", torch.arange(num_cols, dtype=torch.float32))
        self.conf_thr = 0.5
        self.max_jump = 3.0
        self.min_points = 3

    def forward(self, logits):
        # logits: (1, num_lanes, R, num_cols)
        logits = self.refine(logits)
        lanes = []
        for l in range(self.num_lanes):
            xs = []
            prev = torch.full((), -1.0)
            for r in range(logits.shape[2]):
                p = torch.softmax(logits[0, l, r], dim=0)
                if p.max() < self.conf_thr:
                    xs.append(torch.full((), -1.0))
                    continue
                x = (p * self.cols).sum()
                if prev >= 0 and (x - prev).abs() > self.max_jump:
                    xs.append(torch.full((), -1.0))
                    continue
                prev = x
                xs.append(x)
            lane = torch.stack(xs)
            if (lane >= 0).sum() < self.min_points:
                lane = torch.full_like(lane, -1.0)
            lanes.append(lane)
        return torch.stack(lanes)


def model():
    torch.manual_seed(4)
    return LanePostProcess().eval()


def _logits(rows, cols_per_lane, peaks):
    out = torch.zeros(1, 2, rows, 24)
    for l in range(2):
        for r in range(rows):
            out[0, l, r, cols_per_lane[l][r]] = peaks[l][r]
    return out


def example_inputs():
    rows = 8
    c = [[4 + r // 2 for r in range(rows)], [18 - r // 2 for r in range(rows)]]
    return (_logits(rows, c, [[6.0] * rows, [6.0] * rows]),)


def dynamic_shapes():
    return ({2: torch.export.Dim("rows", min=2, max=72)},)


def verify_inputs():
    rows = 6
    c = [[5, 5, 15, 6, 6, 7], [10, 11, 12, 13, 14, 15]]
    pk = [[7.0, 1.0, 7.0, 7.0, 7.0, 7.0], [1.0, 1.0, 1.0, 7.0, 7.0, 1.0]]
    return [(_logits(rows, c, pk),),
            (_logits(3, [[2, 3, 4], [20, 20, 21]], [[8.0, 8.0, 8.0], [8.0, 2.0, 8.0]]),)]
