"""Clamp-on ultrasonic flow meter, transit-time method.

The same burst is sent downstream and upstream across the pipe; the flow
speeds up one and slows the other. The time difference is found with a
cross-correlation peak, refined to a sub-sample estimate with parabolic
interpolation and then Gauss-Newton iterations on a fractionally shifted
copy of the upstream signal. A learned meter-factor net corrects the
line-averaged velocity to the area-averaged one (flow-profile effects).
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def cross_correlation(a, b):
    """c[k] = sum_n a[n] * b[n - (k - (N - 1))], lags -(N-1) .. N-1."""
    n = a.shape[0]
    return F.conv1d(F.pad(a, (n - 1, n - 1)).view(1, 1, -1), b.view(1, 1, -1)).view(-1)


def parabolic_offset(c, k):
    if k <= 0 or k >= c.shape[0] - 1:
        return torch.zeros(())
    y0, y1, y2 = c[k - 1], c[k], c[k + 1]
    return 0.5 * (y0 - y2) / (y0 - 2.0 * y1 + y2)


def fractional_shift(x, delay):
    """x delayed by a (possibly fractional) number of samples, linear interpolation."""
    n = x.shape[0]
    pos = torch.arange(n, dtype=x.dtype) - delay
    lo = torch.floor(pos)
    frac = pos - lo
    lo_i = lo.long().clamp(0, n - 1)
    hi_i = (lo_i + 1).clamp(0, n - 1)
    inside = ((pos >= 0) & (pos <= n - 1)).to(x.dtype)
    return ((1 - frac) * x[lo_i] + frac * x[hi_i]) * inside


def refine_delay(down, up, delay, max_iter, tol):
    step = torch.ones(())
    it = 0
    while step.abs() > tol and it < max_iter:
        shifted = fractional_shift(up, delay)
        slope = torch.gradient(shifted)[0]
        residual = down - shifted
        step = -(residual * slope).sum() / (slope * slope).sum().clamp(min=1e-9)
        delay = delay + step.clamp(-0.5, 0.5)
        it += 1
    return delay, it


class TransitTimeFlowMeter(nn.Module):
    def __init__(self, fs_hz=4.0e6, path_m=0.12, angle_deg=45.0, sound_mps=1482.0, diameter_m=0.1):
        super().__init__()
        self.fs_hz = fs_hz
        self.path_m = path_m
        self.cos_angle = math.cos(math.radians(angle_deg))
        self.sound_mps = sound_mps
        self.area_m2 = math.pi * diameter_m ** 2 / 4.0
        self.min_snr = 8.0
        self.meter_factor = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1))

    def forward(self, downstream, upstream):
        fs = self.fs_hz
        if downstream.shape[0] > 256:
            # long capture: decimate by 2 (pairwise mean) to keep the correlation cheap
            downstream = F.avg_pool1d(downstream.view(1, 1, -1), 2).view(-1)
            upstream = F.avg_pool1d(upstream.view(1, 1, -1), 2).view(-1)
            fs = fs / 2.0
        n = downstream.shape[0]
        c = cross_correlation(downstream, upstream)
        k = int(torch.argmax(c).item())
        peak_snr = c[k] / (c.abs().mean() + 1e-9)
        if peak_snr < self.min_snr:
            # no clean burst (empty pipe / air bubbles): report zero flow, invalid
            return torch.zeros(()), torch.zeros(()), torch.zeros((), dtype=torch.long)

        coarse = (k - (n - 1)) + parabolic_offset(c, k)
        delay, iters = refine_delay(downstream, upstream, coarse, max_iter=20, tol=1e-3)
        dt = delay / fs
        velocity = self.sound_mps ** 2 * dt / (2.0 * self.path_m * self.cos_angle)
        mf = 1.0 + 0.05 * torch.tanh(self.meter_factor(torch.stack([velocity, torch.tensor(iters / 20.0)])))
        flow_m3h = velocity * mf.squeeze(0) * self.area_m2 * 3600.0
        return flow_m3h, velocity, torch.ones((), dtype=torch.long)


def model():
    torch.manual_seed(5520)
    return TransitTimeFlowMeter().eval()


def _capture(n, delay_samples, noise, seed, burst=True):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(n, dtype=torch.float32)
    center = n / 2.0
    width = n / 10.0
    period = 8.0

    def pulse(shift):
        tt = t - center - shift
        return torch.exp(-0.5 * (tt / width) ** 2) * torch.sin(2 * math.pi * tt / period)

    amp = 1.0 if burst else 0.0
    up = amp * pulse(-delay_samples / 2.0) + noise * torch.randn(n, generator=g)
    down = amp * pulse(delay_samples / 2.0) + noise * torch.randn(n, generator=g)
    return down, up


def _mistimed(n):
    # receive gates misaligned: the burst edge lands on opposite ends of the two captures
    down = torch.zeros(n)
    up = torch.zeros(n)
    down[0] = 1.0
    up[-1] = 1.0
    return down, up


def example_inputs():
    return _capture(200, 1.3, 0.01, 1)


def dynamic_shapes():
    samples = torch.export.Dim("samples", min=64, max=512)
    return ({0: samples}, {0: samples})


def verify_inputs():
    return [
        example_inputs(),                          # clean burst, sub-sample delay refined by Gauss-Newton
        _capture(64, -0.4, 0.01, 2),               # samples=min: reverse flow
        _capture(512, 3.7, 0.02, 3),               # samples=max > 256: decimated first
        _capture(128, 0.0, 0.2, 4, burst=False),   # only noise: low correlation SNR -> invalid, early return
        _capture(300, 2.2, 0.05, 5),               # decimated, noisier capture
        _mistimed(96),                             # correlation peak at the extreme lag: no parabolic refinement
    ]
