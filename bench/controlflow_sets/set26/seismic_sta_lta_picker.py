"""STA/LTA event picker for a single-channel seismometer trace.

A learned pre-filter is applied, then the short-term / long-term average energy ratio
drives a two-threshold trigger: the trigger switches on above `on` and off below
`off`; triggers shorter than `min_dur` samples are discarded as glitches, and an
event still running at the end of the trace is closed at the last sample.  Returns
the (onset, end) sample pairs and each event's peak amplitude.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class STALTAPicker(nn.Module):
    def __init__(self, sta=8, lta=48, on=3.0, off=1.5, min_dur=12):
        super().__init__()
        self.prefilter = nn.Conv1d(1, 1, 5, padding=2, bias=False)
        with torch.no_grad():
            self.prefilter.weight.mul_(0.1)
            self.prefilter.weight[0, 0, 2] += 1.0
        self.sta, self.lta = sta, lta
        self.on, self.off = on, off
        self.min_dur = min_dur

    def forward(self, trace):
        T = trace.shape[0]
        if T < self.lta + self.sta:
            return torch.zeros(0, 2, dtype=torch.long), torch.zeros(0)
        x = self.prefilter(trace.view(1, 1, T)).view(1, T)
        e = x * x
        # both windows end at the same sample; ratio[i] belongs to sample i + lta - 1
        sta = F.avg_pool1d(e[:, self.lta - self.sta:], self.sta, stride=1)[0]
        lta = F.avg_pool1d(e, self.lta, stride=1)[0]
        ratio = sta / (lta + 1e-6)
        picks = []
        triggered = False
        onset = 0
        for i in range(ratio.shape[0]):
            r = ratio[i]
            if not triggered and r > self.on:
                triggered = True
                onset = i
            elif triggered and r < self.off:
                triggered = False
                if i - onset >= self.min_dur:
                    picks.append([onset + self.lta - 1, i + self.lta - 1])
        if triggered:
            picks.append([onset + self.lta - 1, T - 1])
        if len(picks) == 0:
            return torch.zeros(0, 2, dtype=torch.long), torch.zeros(0)
        peaks = []
        for s, t_end in picks:
            peaks.append(trace[s: t_end + 1].abs().amax())
        return torch.tensor(picks), torch.stack(peaks)


def model():
    torch.manual_seed(0)
    return STALTAPicker().eval()


def _trace(g, T, events=(), glitches=()):
    t = torch.arange(T, dtype=torch.float32)
    x = 0.1 * torch.randn(T, generator=g)
    for onset, amp in events:
        k = (t - onset).clamp(min=0)
        x = x + (t >= onset).float() * amp * torch.exp(-k / 25.0) * torch.sin(0.9 * k)
    for pos in glitches:
        x[pos: pos + 2] += 1.5
    return (x,)


def example_inputs():
    g = torch.Generator().manual_seed(1)
    return _trace(g, 300, events=[(120, 1.5)])


def dynamic_shapes():
    return ({0: torch.export.Dim("samples", min=16, max=8192)},)


def verify_inputs():
    g = torch.Generator().manual_seed(3)
    return [
        _trace(g, 40),                                          # shorter than the windows
        _trace(g, 200),                                         # only noise
        _trace(g, 400, events=[(100, 2.0), (260, 1.2)]),        # two events
        _trace(g, 260, glitches=[150]),                         # a glitch only
        _trace(g, 220, events=[(210, 2.0)]),                    # event runs past the end
    ]
