"""Well-control kick detection while drilling: flow-out vs flow-in excess and
pit-volume gain, with a window chosen by the record length."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim


class KickDetector(nn.Module):
    def __init__(self, flow_thresh=0.5, pit_thresh=5.0, units="bbl"):
        super().__init__()
        self.flow_thresh = flow_thresh
        self.pit_thresh = pit_thresh
        self.scale = 1.0 if units == "bbl" else 6.29  # m3 -> bbl
        self.long_window = 16
        self.short_window = 4
        self.severity = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 3))

    def moving_average(self, x):
        win = self.long_window if x.shape[0] >= 64 else self.short_window
        return F.avg_pool1d(x[None, None], win, stride=1)[0, 0]

    def forward(self, flow_in, flow_out, pit):
        # flow_in / flow_out: [T] bbl/min, pit: [T] active pit volume (bbl)
        delta = self.moving_average((flow_out - flow_in) * self.scale)
        pit_gain = (pit - pit[0]) * self.scale
        flow_alarm = (delta > self.flow_thresh).any()
        pit_alarm = pit_gain.max() > self.pit_thresh
        if flow_alarm and pit_alarm:
            level = torch.tensor(2.0)  # shut in the well
        elif flow_alarm or pit_alarm:
            level = torch.tensor(1.0)  # flow check
        else:
            level = torch.tensor(0.0)
        feats = torch.stack([delta.max(), pit_gain.max()])
        logits = self.severity(feats / 10.0)
        return level, logits


def model():
    torch.manual_seed(4903)
    return KickDetector().eval()


def _rec(T, seed, flow_kick=False, pit_kick=False):
    g = torch.Generator().manual_seed(seed)
    flow_in = 20.0 + 0.05 * torch.randn(T, generator=g)
    flow_out = flow_in + 0.05 * torch.randn(T, generator=g)
    pit = 400.0 + 0.3 * torch.randn(T, generator=g)
    if flow_kick:
        flow_out[T // 2:] += 2.0
    if pit_kick:
        pit[T // 2:] += torch.linspace(3.0, 15.0, T - T // 2)
    return flow_in, flow_out, pit


def example_inputs():
    # long record (window 16), both alarms -> shut-in
    return _rec(100, 21, flow_kick=True, pit_kick=True)


def dynamic_shapes():
    t = Dim("samples", min=16, max=512)
    return ({0: t}, {0: t}, {0: t})


def verify_inputs():
    return [
        example_inputs(),
        _rec(20, 22),                   # short window, no alarm
        _rec(30, 23, flow_kick=True),   # short window, flow alarm only -> flow check
        _rec(80, 24, pit_kick=True),    # long window, pit alarm only -> flow check
        _rec(512, 25),                  # max length, quiet
    ]
