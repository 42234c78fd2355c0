"""Sleep apnea screening from a home sleep test (airflow envelope + SpO2, 1 Hz).

A learned smoother cleans the airflow envelope; the recording is padded to whole 10 s epochs;
a two-state machine walks the seconds to find flow reductions >= 10 s, and an event counts as
an apnea/hypopnea when the helper confirms an oxygen desaturation (or the event is very long).
Outputs: apnea-hypopnea index and the (start, end) of each event (data-dependent count).
"""

import torch
import torch.nn.functional as F
from torch import nn


class ApneaDetector(nn.Module):
    def __init__(self, epoch: int = 10, ratio_thr: float = 0.3, min_dur: int = 10, long_event: int = 60):
        super().__init__()
        self.smooth = nn.Conv1d(1, 1, 3, padding=1)
        self.epoch = epoch
        self.ratio_thr = ratio_thr
        self.min_dur = min_dur
        self.long_event = long_event

    def desaturated(self, spo2: torch.Tensor, s: int, e: int) -> torch.Tensor:
        if e - s > self.long_event:
            return torch.tensor(True)  # very long flow cessation counts regardless
        base = spo2[max(s - 10, 0): s + 1].max()
        nadir = spo2[s: e + 20].min()
        return (base - nadir) >= 3.0

    def forward(self, flow: torch.Tensor, spo2: torch.Tensor):
        # flow: (T,) airflow envelope; spo2: (T,) percent
        n = flow.shape[0]
        pad = (self.epoch - n % self.epoch) % self.epoch
        if pad > 0:
            flow = F.pad(flow.view(1, 1, -1), (0, pad), mode="replicate").view(-1)
            spo2 = F.pad(spo2.view(1, 1, -1), (0, pad), mode="replicate").view(-1)
        env = flow + 0.02 * torch.tanh(self.smooth(flow.view(1, 1, -1))).view(-1)
        epochs = env.view(-1, self.epoch).mean(1)
        baseline = epochs.max().clamp_min(1e-3)
        ratio = env / baseline
        state, start = 0, 0
        events = []
        for t in range(ratio.shape[0]):
            if state == 0:
                if ratio[t] < self.ratio_thr:
                    state, start = 1, t
            elif ratio[t] >= self.ratio_thr:
                if t - start >= self.min_dur and self.desaturated(spo2, start, t):
                    events.append(torch.tensor([start, t]))
                state = 0
        if state == 1:  # recording ended inside an event
            if ratio.shape[0] - start >= self.min_dur:
                events.append(torch.tensor([start, ratio.shape[0]]))
        hours = n / 3600.0
        ahi = torch.tensor(len(events) / hours)
        ev = torch.stack(events) if len(events) > 0 else torch.zeros(0, 2, dtype=torch.long)
        return ahi, ev


def model() -> nn.Module:
    torch.manual_seed(0)
    return ApneaDetector().eval()


def _night(T, events, seed, desat=4.0):
    g = torch.Generator().manual_seed(seed)
    flow = 1.0 + 0.05 * torch.rand(T, generator=g)
    spo2 = 96.0 + 0.3 * torch.rand(T, generator=g)
    for (s, e) in events:
        flow[s:min(e, T)] = 0.1 + 0.02 * torch.rand(min(e, T) - s, generator=g)
        lo, hi = min(s + 8, T), min(e + 15, T)
        spo2[lo:hi] = spo2[lo:hi] - desat
    return flow, spo2


def example_inputs() -> tuple:
    return _night(200, [(30, 50), (100, 105), (150, 168)], 0)


def dynamic_shapes():
    d = torch.export.Dim("seconds", min=20, max=3600)
    return ({0: d}, {0: d})


def verify_inputs() -> list:
    return [
        _night(333, [(20, 110), (200, 215), (300, 333)], 1, desat=1.0),  # long event; shallow desats; ends in event
        _night(120, [(100, 120)], 2),                                     # ends inside a short-ish event
        _night(95, [], 3),                                                # normal breathing, padded
        _night(60, [(52, 60)], 4),                                        # too short at the end
    ]
