"""Inline QC for an injection-moulding cell from the cavity-pressure sensor.

Every shot produces a cavity-pressure curve (bar, sampled at 1 kHz, length
depends on the cycle time).  Short shots are rejected straight away.  Otherwise
the curve is resampled to a fixed length and, with the machine set-points, fed
to an MLP that predicts the deviation of three critical part dimensions.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim

GOOD, SHORT_SHOT, COSMETIC, DIMENSIONAL = 0, 1, 2, 3


class CycleQC(nn.Module):
    def __init__(self, curve_len=64, allow_cosmetic=False):
        super().__init__()
        self.curve_len = curve_len
        self.allow_cosmetic = allow_cosmetic
        self.short_shot_bar = 150.0
        self.flash_bar = 600.0
        self.hold_ratio = 0.25         # hold pressure must stay above 25 % of peak
        self.tol_mm = 0.30
        self.net = nn.Sequential(nn.Linear(curve_len + 4, 32), nn.ReLU(), nn.Linear(32, 3))

    def forward(self, pressure, setpoints):
        peak = pressure.max()
        if peak < self.short_shot_bar:
            return torch.tensor(SHORT_SHOT), torch.zeros(3), peak

        if pressure.shape[0] > self.curve_len:
            curve = F.adaptive_avg_pool1d(pressure[None, None], self.curve_len)[0, 0]
        else:
            curve = F.pad(pressure, (0, self.curve_len - pressure.shape[0]))
        dev_mm = self.net(torch.cat([curve / peak, setpoints]))

        tail = pressure[-(pressure.shape[0] // 5):]
        sink = tail.mean() < self.hold_ratio * peak
        flash = peak > self.flash_bar
        if flash or (sink and not self.allow_cosmetic):
            status = torch.tensor(COSMETIC)
        elif dev_mm.abs().max() > self.tol_mm:
            status = torch.tensor(DIMENSIONAL)
        else:
            status = torch.tensor(GOOD)
        return status, dev_mm, peak


def model():
    torch.manual_seed(19)
    return CycleQC().eval()


def _gen_shot(n, peak, hold, seed):
    """Fill ramp over the first 30 %, short packing spike, then hold plateau decaying a little."""
    g = torch.Generator().manual_seed(seed)
    t = torch.linspace(0, 1, n)
    fill = torch.clamp(t / 0.3, max=1.0) * peak
    hold_curve = torch.where(t > 0.35, hold * peak * (1.0 - 0.2 * (t - 0.35)), fill)
    return hold_curve + 2.0 * torch.randn(n, generator=g)


def example_inputs():
    return _gen_shot(200, 420.0, 0.6, 0), torch.tensor([0.2, -0.1, 0.4, 0.0])


def dynamic_shapes():
    return ({0: Dim("samples", min=16, max=1024)}, None)


def verify_inputs():
    return [
        example_inputs(),                                                   # long curve (pooled), in tolerance -> GOOD
        (_gen_shot(40, 380.0, 0.55, 1), torch.tensor([0.0, 0.0, 0.0, 0.0])),   # short curve (padded) -> GOOD
        (_gen_shot(120, 90.0, 0.6, 2), torch.tensor([0.1, 0.1, 0.1, 0.1])),    # never reaches 150 bar -> early return
        (_gen_shot(300, 700.0, 0.6, 3), torch.tensor([0.3, 0.2, -0.2, 0.1])),  # over-pressure -> flash -> COSMETIC
        (_gen_shot(150, 400.0, 0.1, 4), torch.tensor([-0.2, 0.0, 0.3, 0.0])),  # hold pressure collapsed -> sink -> COSMETIC
        (_gen_shot(64, 450.0, 0.7, 5), torch.tensor([1.5, -1.2, 2.0, 0.8])),   # exactly curve_len (pad by 0), extreme set-points -> DIMENSIONAL
    ]
