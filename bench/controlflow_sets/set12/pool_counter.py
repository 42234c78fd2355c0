"""Swimming-pool occupancy counter from an overhead camera.

A small density-map CNN (stride 8) counts swimmers; the frame is padded to a multiple
of 8 when needed. Empty pools short-circuit; otherwise per-lane counts are computed and
an over-capacity alert is raised.
"""
import torch
from torch import nn
import torch.nn.functional as F


class DensityNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([
            nn.Conv2d(3, 8, 3, stride=2, padding=1),
            nn.Conv2d(8, 16, 3, stride=2, padding=1),
            nn.Conv2d(16, 16, 3, stride=2, padding=1),
        ])
        self.out = nn.Conv2d(16, 1, 1)

    def forward(self, x):
        for blk in self.blocks:
            x = torch.relu(blk(x))
        return torch.relu(self.out(x) - 0.2) * 10.0  # calibrated density head


class PoolCounter(nn.Module):
    def __init__(self, lanes=4, capacity=6.0):
        super().__init__()
        self.net = DensityNet()
        self.lanes = lanes
        self.capacity = capacity
        self.min_count = 0.5

    def forward(self, frame: torch.Tensor):
        h, w = frame.shape[2], frame.shape[3]
        if h % 8 != 0 or w % 8 != 0:
            frame = F.pad(frame, (0, (8 - w % 8) % 8, 0, (8 - h % 8) % 8), mode="replicate")
        frame = (frame - 0.45) / 0.25
        density = self.net(frame)[0, 0]
        total = density.sum()
        if total < self.min_count:
            return torch.zeros(()), torch.zeros(self.lanes), torch.zeros((), dtype=torch.bool)
        lane_w = density.shape[1] // self.lanes
        per_lane = []
        for k in range(self.lanes):
            if k == self.lanes - 1:  # static
                per_lane.append(density[:, k * lane_w:].sum())
            else:
                per_lane.append(density[:, k * lane_w:(k + 1) * lane_w].sum())
        lanes = torch.stack(per_lane)
        alert = total > self.capacity
        return total, lanes, alert


def model():
    torch.manual_seed(1)
    return PoolCounter().eval()


def _frame(seed, h, w, level):
    g = torch.Generator().manual_seed(seed)
    return (torch.rand(1, 3, h, w, generator=g) * level).clamp(0, 1)


def example_inputs():
    return (_frame(0, 64, 96, 1.0),)


def dynamic_shapes():
    return ({2: torch.export.Dim("H", min=32, max=256), 3: torch.export.Dim("W", min=32, max=256)},)


def verify_inputs():
    return [(_frame(1, 60, 96, 1.0),), (_frame(2, 64, 100, 1.0),), (_frame(3, 48, 48, 0.05),),
            (_frame(4, 128, 200, 1.0),)]
