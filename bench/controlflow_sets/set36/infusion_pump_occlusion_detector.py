"""Medical device: infusion pump occlusion alarm from the downstream line-pressure sensor.

Kind T. Constructs: 1, 2, 3, 4, 8.
"""
import torch
import torch.nn as nn


class OcclusionDetector(nn.Module):
    def __init__(self, rise_thresh=60.0, hard_limit=300.0, drop_thresh=40.0, slow_run=4, fast_run=8):
        super().__init__()
        self.rise_thresh = rise_thresh
        self.hard_limit = hard_limit
        self.drop_thresh = drop_thresh
        self.slow_run = slow_run
        self.fast_run = fast_run
        self.head = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 1))

    def forward(self, pressure, rate, ref):
        # pressure: last T samples [mmHg] at 1 Hz; rate: programmed rate [mL/h];
        # ref: line pressure measured when the infusion started
        rise = pressure - ref[0]

        # length of the current run of samples above the rise threshold
        i = pressure.shape[0] - 1
        run = torch.zeros((), dtype=torch.long)
        while i >= 0 and rise[i] > self.rise_thresh:
            run += 1
            i -= 1

        # low rates build pressure slowly, so fewer consecutive samples are required
        needed = self.slow_run if rate.item() < 5.0 else self.fast_run

        if pressure.shape[0] >= 3:
            recent = rise[-3:].mean()
        else:
            recent = rise[-1]

        code = torch.zeros_like(rise[0])
        if rise[-1] > self.hard_limit or run >= needed:
            code = torch.ones_like(code)  # downstream occlusion
        elif recent < -self.drop_thresh:
            code = torch.full_like(code, 2.0)  # upstream occlusion / empty container

        feats = torch.stack([rise[-1] / 100.0, rise.max() / 100.0, run.to(rise.dtype) / 10.0, rate[0] / 100.0])
        score = torch.sigmoid(self.head(feats)).squeeze(-1)
        return code, score, run


def model():
    torch.manual_seed(36008)
    return OcclusionDetector().eval()


def _pressure(seed, n, base=80.0, ramp_from=None, slope=12.0, end_jump=0.0, drop=0.0):
    g = torch.Generator().manual_seed(seed)
    p = base + 3.0 * torch.randn(n, generator=g)
    if ramp_from is not None:
        k = torch.arange(n - ramp_from, dtype=torch.float32)
        p[ramp_from:] += 70.0 + slope * k
    p[-1] += end_jump
    if drop:
        p[-4:] -= drop
    return p


REF = torch.tensor([80.0])


def example_inputs():
    # 60 s at 50 mL/h, pressure ramps for the last 15 samples -> downstream occlusion
    return (_pressure(1, 60, ramp_from=45), torch.tensor([50.0]), REF)


def dynamic_shapes():
    samples = torch.export.Dim("samples", min=2, max=900)
    return ({0: samples}, None, None)


def verify_inputs():
    return [
        example_inputs(),                                                     # while runs 15x, run >= 8 -> alarm
        (_pressure(2, 60), torch.tensor([50.0]), REF),                        # flat: while runs 0x, no alarm
        (_pressure(3, 40, ramp_from=35), torch.tensor([2.0]), REF),           # slow rate (needs 4), run 5 -> alarm
        (_pressure(4, 40, ramp_from=35), torch.tensor([20.0]), REF),          # fast rate (needs 8), run 5 -> no alarm
        (_pressure(5, 30, end_jump=320.0), torch.tensor([20.0]), REF),        # single spike above hard limit (1st `or` operand)
        (_pressure(6, 6, ramp_from=0), torch.tensor([20.0]), REF),            # whole window high: while stops on i < 0
        (_pressure(7, 50, drop=70.0), torch.tensor([20.0]), REF),             # pressure falls -> upstream occlusion
        (_pressure(8, 2, drop=70.0), torch.tensor([20.0]), REF),              # 2 samples: recent = last sample, upstream
    ]
