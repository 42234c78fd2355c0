"""Head Injury Criterion (HIC) evaluation for a crash-test dummy head accelerometer.

Input is a tri-axial head acceleration trace in g sampled at 1 kHz.  HIC over a window w is
    max over [t1, t2], t2 - t1 <= w, of (t2 - t1) * (mean resultant accel over [t1, t2]) ** 2.5
computed here for the regulatory windows HIC15 and HIC36.  Short traces shrink the window to the
trace length.  Traces whose peak is below the trigger level are treated as a non-event.
The HIC15 value is mapped to an AIS3+ injury probability, with a regulatory pass/fail margin.
"""
import torch
import torch.nn as nn
from torch.export import Dim

DT = 1e-3  # 1 kHz


def hic_for_window(res, window):
    """Max HIC over all intervals of length 2..window samples (res: resultant accel in g)."""
    csum = torch.cat([torch.zeros(1), torch.cumsum(res, 0)])
    best = torch.zeros(())
    for length in range(2, window + 1):
        seg_sum = csum[length:] - csum[:-length]
        dur = length * DT
        avg = seg_sum / length
        hic = (dur * avg.clamp(min=0.0) ** 2.5).amax()
        best = torch.maximum(best, hic)
    return best


class HICEvaluator(nn.Module):
    def __init__(self, windows_ms=(15, 36), trigger_g=10.0, limit_hic15=700.0):
        super().__init__()
        self.windows_ms = windows_ms
        self.trigger_g = trigger_g
        self.limit_hic15 = limit_hic15
        # logistic injury-risk curve parameters (AIS3+ vs HIC15)
        self.register_buffer("risk_coef", torch.tensor([-3.39, 0.00372]))

    def forward(self, accel):
        res = accel.norm(dim=1)
        if res.amax() < self.trigger_g:
            return torch.zeros(len(self.windows_ms)), torch.zeros(()), torch.ones(())
        hics = []
        for w in self.windows_ms:
            if accel.shape[0] < w:
                w = accel.shape[0]
            hics.append(hic_for_window(res, w))
        hics = torch.stack(hics)
        p_injury = torch.sigmoid(self.risk_coef[0] + self.risk_coef[1] * hics[0])
        if hics[0] > self.limit_hic15:
            margin = torch.zeros(())
        else:
            margin = 1.0 - hics[0] / self.limit_hic15
        return hics, p_injury, margin


def model():
    return HICEvaluator().eval()


def _pulse(n, peak_g, center, width, seed):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(n).float()
    shape = torch.exp(-0.5 * ((t - center) / width) ** 2)
    direction = torch.tensor([0.9, 0.3, 0.3])
    return peak_g * shape[:, None] * direction + 0.3 * torch.randn(n, 3, generator=g)


def example_inputs():
    return (_pulse(120, 60.0, 50.0, 6.0, 0),)


def dynamic_shapes():
    return ({0: Dim("samples", min=4, max=2000)},)


def verify_inputs():
    return [
        example_inputs(),                       # 120 ms trace, moderate impact: both windows full length, passes
        (_pulse(100, 4.0, 50.0, 10.0, 1),),     # sled bump below trigger -> early non-event return
        (_pulse(200, 110.0, 90.0, 8.0, 2),),    # severe impact: HIC15 > limit -> margin 0
        (_pulse(24, 45.0, 12.0, 4.0, 3),),      # 24 ms trace: 15 ms window fits, 36 ms window shrinks
        (_pulse(10, 50.0, 5.0, 3.0, 4),),       # 10 ms trace: both windows shrink to trace length
    ]
