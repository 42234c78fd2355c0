"""Power-quality event detector for a feeder voltage recorder.

The recorder samples the phase voltage at 32 samples per 50 Hz cycle. Per-cycle
RMS is normalised by the pre-event reference (first cycles of the record when
the record is long enough, nominal otherwise) and classified with IEEE-1159
style rules (interruption, sag, swell, sag+swell). A per-cycle conv feature
extractor and MLP give disturbance-cause logits (fault / motor start / switching).
"""
import torch
import torch.nn as nn
from torch.export import Dim

NORMAL, SAG, SWELL, INTERRUPTION, MIXED = 0, 1, 2, 3, 4


def cycle_rms(v, spc):
    n = v.shape[0] // spc
    cycles = v[: n * spc].reshape(n, spc)
    return cycles.pow(2).mean(dim=1).sqrt()


def classify_event(rms_pu, sag=0.9, swell=1.1, interruption=0.1):
    lo, hi = rms_pu.min(), rms_pu.max()
    if lo < interruption:
        return INTERRUPTION
    if lo < sag and hi > swell:
        return MIXED
    elif lo < sag:
        return SAG
    elif hi > swell:
        return SWELL
    return NORMAL


class PowerQualityMonitor(nn.Module):
    def __init__(self, spc=32, ref_cycles=5):
        super().__init__()
        self.spc = spc
        self.ref_cycles = ref_cycles
        self.cycle_feat = nn.Conv1d(1, 8, kernel_size=spc, stride=spc)
        self.head = nn.Sequential(nn.Linear(9, 16), nn.ReLU(), nn.Linear(16, 3))

    def forward(self, v):
        rms = cycle_rms(v, self.spc)
        if rms.shape[0] >= 2 * self.ref_cycles:
            ref = rms[: self.ref_cycles].mean()
        else:
            ref = torch.ones((), dtype=v.dtype)
        rms_pu = rms / ref

        event = classify_event(rms_pu)
        below = rms_pu < 0.9
        duration = below.sum()

        n = rms.shape[0]
        feats = self.cycle_feat(v[: n * self.spc].reshape(1, 1, -1) / ref).squeeze(0).t()
        pooled = torch.cat([feats.mean(dim=0), rms_pu.min().reshape(1)])
        logits = self.head(pooled)
        if event == SAG and not duration >= 3:
            # sub-3-cycle sag: most likely a cleared fault, boost the fault logit
            logits = logits + torch.tensor([1.0, 0.0, 0.0], dtype=logits.dtype)
        return rms_pu, torch.tensor(event), logits, duration


def model():
    torch.manual_seed(23)
    return PowerQualityMonitor().eval()


def _wave(levels, extra=0, spc=32):
    """levels: per-cycle RMS in per-unit; extra: trailing partial-cycle samples."""
    a = torch.tensor(levels, dtype=torch.float32).repeat_interleave(spc)
    a = torch.cat([a, torch.full((extra,), float(levels[-1]))])
    t = torch.arange(a.shape[0], dtype=torch.float32)
    return (a * (2.0 ** 0.5) * torch.sin(2 * torch.pi * t / spc),)


def example_inputs():
    return _wave([1.0] * 6 + [0.6, 0.6, 0.6] + [1.0] * 3, extra=16)


def dynamic_shapes():
    return ({0: Dim("samples", min=64, max=8192)},)


def verify_inputs():
    return [
        example_inputs(),                                    # long record, 3-cycle sag (not short) -> SAG
        _wave([1.0] * 6 + [0.02, 0.02] + [1.0] * 4),         # interruption (early return in helper)
        _wave([1.0] * 6 + [1.25] * 4 + [1.0] * 2),           # swell
        _wave([1.0] * 5 + [0.7, 1.3, 0.7, 1.3] + [1.0] * 3),  # sag and swell -> MIXED
        _wave([1.0, 1.0, 1.0], extra=4),                     # short record (<10 cycles), normal; nominal ref
        _wave([1.0] * 7 + [0.5] + [1.0] * 4),                # one-cycle sag -> fault boost
        _wave([1.0, 0.75]),                                  # minimum length, short record with sag of 1 cycle
    ]
