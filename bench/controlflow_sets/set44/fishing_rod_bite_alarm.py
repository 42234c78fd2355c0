"""Rod-tip accelerometer bite alarm for a carp-fishing bite indicator.

Kind T. Constructs: 1, 2, 5, 6, 9.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class BiteAlarm(nn.Module):
    def __init__(self, use_highpass=True, thresh=0.5):
        super().__init__()
        self.use_highpass = use_highpass  # config flag (plain Python)
        self.thresh = thresh
        self.event_enc = nn.Linear(4, 8)
        self.head = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 2))

    def forward(self, accel):
        # accel: (T, 3) in g
        mag = accel.norm(dim=1)
        baseline = mag[:4].mean() if self.use_highpass else 1.0
        mag = mag - baseline
        dev = mag.abs()
        if dev.max() < self.thresh:
            # quiet rod: no bite
            return torch.zeros(2), torch.zeros(8)
        events = []
        for t in range(accel.shape[0]):
            if dev[t] < self.thresh:
                continue
            feat = torch.stack([dev[t], accel[t, 0], accel[t, 1], accel[t, 2]])
            events.append(self.event_enc(feat))
        ev = torch.stack(events)
        pooled = ev.max(dim=0).values
        return self.head(pooled).softmax(-1), pooled


def model():
    torch.manual_seed(101)
    return BiteAlarm().eval()


def _rod(T, bites, seed):
    g = torch.Generator().manual_seed(seed)
    a = torch.zeros(T, 3)
    a[:, 2] = 1.0
    a += 0.02 * (torch.rand(T, 3, generator=g) - 0.5)
    for t in bites:
        a[t] = torch.tensor([0.9, -0.6, 2.1])
    return a


def example_inputs():
    return (_rod(40, [10, 11, 30], 1),)


def dynamic_shapes():
    return ({0: Dim("steps", min=8, max=256)},)


def verify_inputs():
    return [
        example_inputs(),            # bites -> loop, continue taken and not taken
        (_rod(8, [], 2),),           # quiet rod -> early return
        (_rod(256, [100], 3),),      # single bite at max length
        (_rod(12, list(range(4, 12)), 4),),  # bites at every step after baseline
    ]
