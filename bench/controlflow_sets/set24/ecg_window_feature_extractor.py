"""Windowed ECG feature extractor for a 3-lead recording of variable length.

The recording is cut into fixed windows; windows where the leads are flat
(electrode off) are skipped, saturated windows are clipped, and the remaining
windows are embedded by a small 1-D CNN.  Short recordings are zero-padded to
one window.  Returns the per-window embeddings (data-dependent count) and a
recording-level embedding.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class WindowEncoder(nn.Module):
    def __init__(self, leads=3, d=16):
        super().__init__()
        self.conv1 = nn.Conv1d(leads, 8, 5, padding=2)
        self.conv2 = nn.Conv1d(8, d, 5, padding=2, stride=2)

    def forward(self, seg):
        h = F.relu(self.conv1(seg.unsqueeze(0)))
        h = F.relu(self.conv2(h))
        return h.amax(-1).squeeze(0)


class ECGWindowFeatures(nn.Module):
    def __init__(self, win=32, min_energy=0.004, clip=3.0, d=16):
        super().__init__()
        self.win = win
        self.min_energy = min_energy
        self.clip = clip
        self.d = d
        self.encoder = WindowEncoder(d=d)

    def forward(self, signal):
        L = signal.shape[1]
        if L < self.win:
            signal = F.pad(signal, (0, self.win - L))
        signal = signal - signal.mean(dim=1, keepdim=True)
        feats = []
        for w in range(signal.shape[1] // self.win):
            seg = signal[:, w * self.win:(w + 1) * self.win]
            if seg.pow(2).mean() < self.min_energy:
                continue  # flat line: electrode off
            if seg.abs().max() > self.clip:
                seg = seg.clamp(-self.clip, self.clip)
            feats.append(self.encoder(seg))
        if len(feats) == 0:
            empty = signal.new_zeros(0, self.d)
            return empty, signal.new_zeros(self.d)
        per_window = torch.stack(feats)
        return per_window, per_window.mean(0)


def model():
    torch.manual_seed(0)
    return ECGWindowFeatures().eval()


def _ecg(g, L, period=25.0, amp=1.0, flat=(), noise=0.05):
    t = torch.arange(L, dtype=torch.float32)
    phase = torch.rand(1, generator=g) * period
    x = ((t + phase) % period - period / 2) / 1.5
    beat = torch.exp(-x ** 2) * amp
    leads = torch.stack([beat, 0.6 * beat, -0.4 * beat]) + noise * torch.randn(3, L, generator=g)
    for a, b in flat:
        leads[:, a:b] = 0.0
    return leads


def example_inputs():
    g = torch.Generator().manual_seed(0)
    return (_ecg(g, 100),)


def dynamic_shapes():
    return ({1: torch.export.Dim("samples", min=8, max=512)},)


def verify_inputs():
    g = torch.Generator().manual_seed(7)
    return [
        (_ecg(g, 20),),                                 # shorter than a window: padded
        (_ecg(g, 40, flat=((0, 40),), noise=0.0),),     # single window, all flat -> empty
        (_ecg(g, 200, flat=((64, 128),)),),             # several windows, two skipped
        (_ecg(g, 160, amp=5.0),),                       # saturated -> clipped
    ]
