"""Automatic high-beam assist: from the light blobs found in the night camera
image decide whether the high beam may stay on (no oncoming headlights, no tail
lights ahead), with a learned vehicle-light score for the HMI.

Kind T; constructs 1, 2, 3, 5, 6, 8."""
import torch
import torch.nn as nn
from torch.export import Dim


class HighBeamAssist(nn.Module):
    def __init__(self):
        super().__init__()
        torch.manual_seed(407)
        self.light_cls = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 1))
        self.min_speed = 40.0      # km/h, below that the assist is off (city)
        self.max_blobs = 32
        self.min_area = 4.0        # px

    def forward(self, blobs, speed):
        # blobs: [N, 6] = (x, y, area px, brightness 0..1, redness 0..1, distance to nearest twin blob, 0..1)
        # speed: [1] km/h
        if speed[0] < self.min_speed:
            return torch.zeros(1), torch.zeros(1)
        if blobs.shape[0] > self.max_blobs:
            keep = torch.topk(blobs[:, 3], self.max_blobs).indices
            blobs = blobs[keep]
        beam = torch.ones(1)
        scores = []
        for i in range(blobs.shape[0]):
            b = blobs[i]
            if b[2] < self.min_area:
                continue          # stars, road studs, noise
            scores.append(torch.sigmoid(self.light_cls(b)))
            is_tail = b[4] > 0.6 and b[3] > 0.2
            is_head = b[3] > 0.8 and b[5] < 0.3
            if is_tail or is_head:
                beam = torch.zeros(1)   # dip: someone ahead or oncoming
                break
        if len(scores) == 0:
            return beam, torch.zeros(1)
        return beam, torch.stack(scores).mean(0)


def model():
    return HighBeamAssist().eval()


def _background(n, seed):
    """Dim, small, white blobs: stars, reflectors, street furniture."""
    g = torch.Generator().manual_seed(seed)
    xy = torch.rand(n, 2, generator=g)
    area = 1.0 + 12.0 * torch.rand(n, 1, generator=g)
    bright = 0.05 + 0.6 * torch.rand(n, 1, generator=g)
    red = 0.05 + 0.4 * torch.rand(n, 1, generator=g)
    twin = 0.4 + 0.6 * torch.rand(n, 1, generator=g)
    return torch.cat([xy, area, bright, red, twin], dim=1)


def example_inputs():
    blobs = _background(10, 1)
    blobs[6] = torch.tensor([0.5, 0.4, 20.0, 0.9, 0.1, 0.1])   # oncoming headlight pair
    return blobs, torch.tensor([90.0])


def dynamic_shapes():
    return ({0: Dim("blobs", min=2, max=64)}, None)


def verify_inputs():
    tail = _background(8, 2)
    tail[3] = torch.tensor([0.5, 0.5, 9.0, 0.4, 0.8, 0.5])     # red tail light ahead
    many = _background(64, 6)
    many[50] = torch.tensor([0.3, 0.4, 30.0, 0.95, 0.2, 0.05])  # bright headlight among many blobs
    tiny = _background(5, 4)
    tiny[:, 2] = 2.0                                            # everything below min area
    return [
        example_inputs(),                                   # headlight found after some blobs -> dip, break
        (_background(12, 5), torch.tensor([30.0])),         # slow city driving -> early return
        (tail, torch.tensor([70.0])),                       # tail light (is_tail) -> dip
        (_background(2, 6), torch.tensor([100.0])),         # min blobs, nothing relevant -> high beam stays on
        (many, torch.tensor([120.0])),                      # max blobs > 32: keep brightest, then dip on headlight
        (tiny, torch.tensor([80.0])),                       # all blobs too small: every one skipped, no scores
        (_background(33, 7), torch.tensor([80.0])),         # 33 dim blobs: trimmed to 32, loop runs to the end
    ]
