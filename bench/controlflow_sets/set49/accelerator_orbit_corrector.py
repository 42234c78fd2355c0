"""Storage-ring closed-orbit correction (MICADO-style): repeatedly pick the
steering magnet that best explains the residual BPM orbit, apply its kick
with power-supply limits, retire saturated magnets, stop at tolerance."""
import math

import torch
import torch.nn as nn
from torch.export import Dim


class OrbitCorrector(nn.Module):
    def __init__(self, n_corr=12, tune=4.31, max_kick=0.5, tol=0.022, max_iter=20):
        super().__init__()
        self.tune = tune
        self.max_kick = max_kick
        self.tol = tol
        self.max_iter = max_iter
        self.register_buffer("beta_c", 5.0 + 10.0 * torch.rand(n_corr))
        self.register_buffer("phase_c", torch.sort(torch.rand(n_corr)).values * 2 * math.pi * tune)

    def response(self, n_bpm):
        # closed-orbit response of BPMs to unit kicks (thin-lens formula)
        phase_b = torch.arange(n_bpm, dtype=torch.float32) * (2 * math.pi * self.tune / n_bpm)
        beta_b = 8.0 + 4.0 * torch.cos(phase_b * 3.0)
        dphi = (phase_b[:, None] - self.phase_c[None, :]).abs()
        return torch.sqrt(beta_b[:, None] * self.beta_c[None, :]) / (2 * math.sin(math.pi * self.tune)) \
            * torch.cos(dphi - math.pi * self.tune)

    def rms(self, x):
        return torch.sqrt((x * x).mean())

    def forward(self, orbit):
        # orbit: [M] measured BPM readings (mm)
        M = orbit.shape[0]
        R = self.response(M)
        tol = self.tol if M >= 16 else 2.0 * self.tol  # sparse BPM sets can't resolve finer
        kicks = torch.zeros(R.shape[1])
        available = torch.ones(R.shape[1], dtype=torch.bool)
        resid = orbit.clone()
        history = [self.rms(resid)]
        it = 0
        while self.rms(resid) > tol and it < self.max_iter:
            if not available.any():
                break  # every steerer is at its limit
            proj = (R * resid[:, None]).sum(0)
            norm2 = (R * R).sum(0)
            gain = (proj.abs() / norm2.sqrt()).masked_fill(~available, -1.0)
            j = gain.argmax()
            new_kick = kicks[j] - proj[j] / norm2[j]
            if new_kick.abs() > self.max_kick:
                new_kick = new_kick.clamp(-self.max_kick, self.max_kick)
                available = available & (torch.arange(R.shape[1]) != j)
            resid = resid + R[:, j] * (new_kick - kicks[j])
            kicks = kicks.index_put((j[None],), new_kick[None])
            history.append(self.rms(resid))
            it += 1
        return resid, kicks, torch.stack(history)


def model():
    torch.manual_seed(4920)
    return OrbitCorrector().eval()


def _orbit(M, seed, kick_scale, noise=0.002, single=None):
    m = model()
    g = torch.Generator().manual_seed(seed)
    R = m.response(M)
    if single is not None:
        k = torch.zeros(R.shape[1])
        k[single] = kick_scale
    else:
        k = kick_scale * torch.randn(R.shape[1], generator=g)
    return (R @ k + noise * torch.randn(M, generator=g),)


def example_inputs():
    # a few misaligned quadrupoles: several corrections, converges to tolerance
    return _orbit(40, 201, 0.15, single=[2, 7, 9])


def dynamic_shapes():
    return ({0: Dim("bpms", min=8, max=256)},)


def verify_inputs():
    return [
        example_inputs(),
        _orbit(24, 202, 0.0, noise=0.005),        # already within tolerance: no iteration
        _orbit(60, 203, 0.2, noise=0.0, single=4),  # one steerer's signature: one correction
        _orbit(10, 204, 0.08),                    # sparse BPMs: relaxed tolerance
        _orbit(256, 205, 3.0),                    # huge errors: steerers saturate, all retired (break)
        _orbit(32, 206, 0.4, noise=0.3),          # noisy orbit: runs to the iteration limit
    ]
