"""Seismic P/S phase picker for a field station (3-component waveform, any length).

STA/LTA characteristic function plus a small learned CNN correction gives P and S scores per
sample; the P pick is the best-scoring sample if it clears a threshold (otherwise the window has
no event and returns early), and the S pick is searched only after the P pick.
Typical: ternary on a tensor, early return, data-dependent slice, and/or, if/else.
"""
import torch
import torch.nn.functional as F
from torch import nn


class PhasePicker(nn.Module):
    def __init__(self):
        super().__init__()
        self.cnn = nn.Sequential(nn.Conv1d(3, 8, 7, padding=3), nn.ReLU(), nn.Conv1d(8, 2, 7, padding=3))
        self.sta, self.lta = 5, 41
        self.p_thr = 2.0
        self.s_thr = 1.5

    def stalta(self, energy):
        sta = F.avg_pool1d(F.pad(energy, (self.sta - 1, 0), mode="replicate"), self.sta, stride=1)
        lta = F.avg_pool1d(F.pad(energy, (self.lta - 1, 0), mode="replicate"), self.lta, stride=1)
        return torch.log(sta + 1e-6) - torch.log(lta + 1e-6)

    def forward(self, wave):
        # wave: (1, 3, T) Z, N, E
        std = wave.std()
        wave = wave / std if std > 1e-6 else wave
        corr = 0.05 * self.cnn(wave)
        cf_z = self.stalta(wave[:, :1] ** 2)
        cf_h = self.stalta((wave[:, 1:] ** 2).sum(dim=1, keepdim=True))
        p_score = (cf_z + corr[:, :1])[0, 0]
        s_score = (cf_h + corr[:, 1:])[0, 0]
        if p_score.max() < self.p_thr:
            return torch.tensor(-1), torch.tensor(-1), p_score.max()
        p_idx = torch.argmax(p_score)
        tail = s_score[int(p_idx) + 10:]
        if tail.shape[0] > 0 and tail.max() > self.s_thr:
            s_idx = p_idx + 10 + torch.argmax(tail)
        else:
            s_idx = torch.tensor(-1)
        return p_idx, s_idx, p_score.max()


def model():
    torch.manual_seed(6)
    return PhasePicker().eval()


def _event(T, p_at, s_at, seed, amp=1.0):
    g = torch.Generator().manual_seed(seed)
    w = 0.05 * torch.randn(1, 3, T, generator=g)
    t = torch.arange(T, dtype=torch.float32)
    if p_at is not None:
        env = torch.exp(-(t - p_at).clamp_min(0) / 60.0) * (t >= p_at).float()
        w[0, 0] += amp * env * torch.sin(0.7 * t)
    if s_at is not None:
        env = torch.exp(-(t - s_at).clamp_min(0) / 80.0) * (t >= s_at).float()
        w[0, 1:] += 2 * amp * env * torch.cos(0.3 * t)
    return w


def example_inputs():
    return (_event(400, 120, 250, 0),)


def dynamic_shapes():
    return ({2: torch.export.Dim("t", min=64, max=4096)},)


def verify_inputs():
    return [
        (_event(300, None, None, 1),),      # noise only -> early return
        (_event(500, 200, None, 2),),       # P without S
        (_event(256, 250, None, 3),),       # P at the very end: empty S window
        (torch.zeros(1, 3, 128),),          # dead channel: no normalisation
    ]
