"""Eddy-current tube inspection: screen an impedance-plane trace for crack indications.

The probe gives the coil impedance as (real, imag) samples along the tube.
Windows whose impedance excursion stays under the noise floor are skipped;
the others are classified by the phase angle of the excursion in the
impedance plane (lift-off / probe wobble is horizontal, shallow cracks sit at
low angles, deep cracks rotate towards 90 deg and beyond). A small MLP maps
the excursion features of crack windows to a depth estimate (% wall).

Constructs: 1, 2, 3, 5, 6, 7, 8
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim


class EddyCurrentScreener(nn.Module):
    def __init__(self):
        super().__init__()
        self.win = 32
        self.hop = 16
        self.noise_floor = 0.15
        self.depth_mlp = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 1))

    def classify_window(self, w):
        d = w - w[:, :1]
        mag = d.norm(dim=0)
        k = mag.argmax()
        angle = torch.rad2deg(torch.atan2(d[1, k], d[0, k])) % 180.0
        if angle < 15 or angle > 165:
            label = torch.tensor(0)      # lift-off / wobble
        elif angle < 60:
            label = torch.tensor(1)      # shallow (OD) crack
        else:
            label = torch.tensor(2)      # deep crack
        return label, mag[k], angle

    def forward(self, sig):
        if sig.shape[1] > 512:
            # high-speed rotating probe: bring it back to the nominal sample spacing
            sig = F.avg_pool1d(sig.unsqueeze(0), 2).squeeze(0)
        sig = F.avg_pool1d(sig.unsqueeze(0), 3, stride=1, padding=1, count_include_pad=False).squeeze(0)

        counts = torch.zeros(3)
        depth = torch.zeros(1)
        n = sig.shape[1]
        for start in range(0, n - self.win + 1, self.hop):
            w = sig[:, start:start + self.win]
            amp = (w - w.mean(dim=1, keepdim=True)).norm(dim=0).max()
            if amp < self.noise_floor:
                continue
            label, vpp, angle = self.classify_window(w)
            counts[label] += 1
            if label > 0:
                f = torch.stack([vpp, angle / 90.0, torch.tensor(start / n)])
                depth = torch.maximum(depth, 100.0 * torch.sigmoid(self.depth_mlp(f)))
        return counts, depth


def model():
    torch.manual_seed(67)
    return EddyCurrentScreener().eval()


def _trace(L, events, seed):
    """events: (position, angle_deg, amplitude)"""
    gen = torch.Generator().manual_seed(seed)
    sig = 0.01 * torch.randn(2, L, generator=gen)
    t = torch.arange(L, dtype=torch.float32)
    for pos, ang, a in events:
        bump = a * torch.exp(-0.5 * ((t - pos) / 3.0) ** 2)
        rad = torch.deg2rad(torch.tensor(float(ang)))
        sig[0] += bump * torch.cos(rad)
        sig[1] += bump * torch.sin(rad)
    return (sig,)


def example_inputs():
    # lift-off event and a shallow crack
    return _trace(200, [(56, 3, 1.0), (136, 40, 0.8)], 1)


def dynamic_shapes():
    return ({1: Dim("samples", min=64, max=1024)},)


def verify_inputs():
    return [
        example_inputs(),                                            # L <= 512; noise windows (continue), lift-off (label 0), shallow crack (label 1)
        _trace(700, [(200, 110, 1.2), (456, 175, 0.9)], 2),          # L > 512: decimation; deep crack (label 2), lift-off near 180 deg
        _trace(64, [], 3),                                           # noise only: every window continues
    ]
