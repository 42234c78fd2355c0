"""Tornado vortex signature (TVS) detection on one Doppler radar tilt.

Input is a radial-velocity sector (range gates x azimuths, m/s).  Velocities that
folded past the Nyquist interval are unfolded along azimuth, long sweeps are
averaged down to a coarser range resolution, and the gate-to-gate azimuthal
shear is searched for a couplet stronger than the TVS threshold inside the
useful range.  A small CNN gives a mesocyclone likelihood for the whole sector.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MesoNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, padding=1)
        self.conv2 = nn.Conv2d(8, 8, 3, padding=1)
        self.fc = nn.Linear(8, 1)

    def forward(self, v):
        x = F.relu(self.conv1(v[None, None] / 30.0))
        x = F.relu(self.conv2(x))
        x = F.adaptive_avg_pool2d(x, 1).flatten(1)
        return torch.sigmoid(self.fc(x)).reshape(1)


class TVSDetector(nn.Module):
    def __init__(self):
        super().__init__()
        self.meso = MesoNet()
        self.nyquist = 55.0           # m/s, dual-PRF extended interval
        self.gate_km = 0.25
        self.max_range_km = 60.0
        self.tvs_delta_v = 45.0       # m/s gate-to-gate

    def unfold(self, v):
        jumps = v[:, 1:] - v[:, :-1]
        if (jumps.abs() > self.nyquist).any():
            wraps = torch.round(jumps / (2 * self.nyquist))
            correction = torch.cumsum(wraps, dim=1) * (2 * self.nyquist)
            v = torch.cat([v[:, :1], v[:, 1:] - correction], dim=1)
        return v

    def forward(self, velocity):
        # velocity: (gates, azimuths)
        v = self.unfold(velocity)
        gate_km = self.gate_km
        if v.shape[0] > 128:
            v = F.avg_pool1d(v.t()[None], 2, 2)[0].t()
            gate_km = gate_km * 2
        shear = (v[:, 1:] - v[:, :-1]).abs()
        ranges = (torch.arange(v.shape[0], dtype=v.dtype) + 0.5) * gate_km
        shear = shear * (ranges < self.max_range_km).to(v.dtype)[:, None]
        peak = shear.max()
        likelihood = self.meso(v)
        location = torch.tensor([-1.0, -1.0])
        if peak >= self.tvs_delta_v:
            flat = int(torch.argmax(shear))
            gate, az = divmod(flat, shear.shape[1])
            location = torch.tensor([(gate + 0.5) * gate_km, az + 0.5])
            flag = torch.tensor(1)
        else:
            flag = torch.tensor(0)
        return flag, peak, location, likelihood


def model():
    torch.manual_seed(5605)
    return TVSDetector().eval()


def _sweep(gates, azimuths, seed, couplet=None, amp=0.0, fold=False):
    g = torch.Generator().manual_seed(seed)
    v = 8.0 * torch.sin(torch.linspace(0, 3, azimuths))[None] + 2.0 * torch.randn(gates, azimuths, generator=g)
    if couplet is not None:
        r, a = couplet
        v[r - 1:r + 2, a] += amp
        v[r - 1:r + 2, a + 1] -= amp
    if fold:
        v = v + torch.linspace(0, 90, azimuths)[None]
        v = torch.remainder(v + 55.0, 110.0) - 55.0
    return v


def example_inputs():
    return (_sweep(96, 40, 1, couplet=(40, 20), amp=24.0),)


def dynamic_shapes():
    gates = torch.export.Dim("gates", min=8, max=256)
    az = torch.export.Dim("azimuths", min=8, max=90)
    return ({0: gates, 1: az},)


def verify_inputs():
    return [
        # 96 gates (no downsampling), couplet of +/-24 m/s at 10 km -> TVS
        example_inputs(),
        # min 8 gates x min 8 azimuths, quiet air -> no TVS
        (_sweep(8, 8, 2),),
        # max 256 gates x max 90 azimuths -> downsampled; strong couplet but beyond 60 km -> no TVS
        (_sweep(256, 90, 3, couplet=(250, 45), amp=40.0),),
        # 200 gates (downsampled), smooth gradient that folded at the Nyquist -> unfolded, no TVS
        (_sweep(200, 60, 4, fold=True),),
        # 64 gates, folded sweep with a real couplet -> unfolded, TVS
        (_sweep(64, 48, 5, couplet=(20, 10), amp=24.0, fold=True),),
    ]
