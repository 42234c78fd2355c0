"""Edge-camera motion detector: frame differencing gates a tiny CNN classifier.

Typical edge pipeline: skip the CNN when nothing moves, damp confidence on global
changes (lighting switch, camera shake).
"""
import torch
from torch import nn
import torch.nn.functional as F


class MotionDetector(nn.Module):
    def __init__(self, use_blur: bool = True):
        super().__init__()
        self.use_blur = use_blur
        self.conv1 = nn.Conv2d(2, 8, 3, padding=1)
        self.conv2 = nn.Conv2d(8, 16, 3, padding=1, stride=2)
        self.head = nn.Linear(16, 3)  # person / vehicle / other
        self.register_buffer("thresh", torch.tensor(0.05))
        self.register_buffer("min_area", torch.tensor(0.02))

    def motion_map(self, prev, cur):
        diff = (cur - prev).abs()
        if self.use_blur:  # static
            diff = F.avg_pool2d(diff, 3, stride=1, padding=1)
        return diff

    def forward(self, prev: torch.Tensor, cur: torch.Tensor):
        diff = self.motion_map(prev, cur)
        moving = (diff > self.thresh).float()
        area = moving.mean()
        peak = diff.amax()
        if area < self.min_area and not peak > 0.5:
            # nothing moving: skip the classifier entirely
            return torch.zeros(1, 3), area
        x = torch.cat([cur, diff], dim=1)
        h = F.relu(self.conv1(x))
        h = F.relu(self.conv2(h))
        logits = self.head(h.mean(dim=(2, 3)))
        if area > 0.5:
            # global change (lights, shake): damp confidence
            logits = logits * 0.25
        return torch.softmax(logits, dim=-1), area


def model():
    torch.manual_seed(0)
    return MotionDetector().eval()


def example_inputs():
    torch.manual_seed(1)
    return (torch.rand(1, 1, 32, 32), torch.rand(1, 1, 32, 32))


def verify_inputs():
    torch.manual_seed(2)
    bg = torch.rand(1, 1, 32, 32) * 0.5
    spot = bg.clone()
    spot[..., 10:12, 10:12] += 2.0          # tiny but bright: small area, high peak
    block = bg.clone()
    block[..., 5:15, 8:18] += 1.0           # a moving object
    return [
        (bg, bg.clone()),                   # no motion at all -> early return
        (bg, spot),
        (bg, block),
    ]
