"""Autotitrator endpoint detection for an acid titrated with NaOH.

volume: titrant added in mL (dynamic N, increasing), ph: electrode reading after
each addition (same N).  A learned one-parameter-pair calibration corrects the
electrode, the endpoint is the steepest point of the curve, and the pH at half
the endpoint volume estimates the pKa of the analyte.
Returns [endpoint_mL, pKa, acid_class] with acid_class 0 strong, 1 weak,
-1 no endpoint found.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class EndpointFinder(nn.Module):
    def __init__(self, min_slope=2.0, min_points=5):
        super().__init__()
        self.min_slope = min_slope
        self.min_points = min_points
        # electrode calibration: slope close to 1, small offset
        self.slope = nn.Parameter(1.0 + 0.01 * torch.randn(()))
        self.offset = nn.Parameter(0.02 * torch.randn(()))

    def forward(self, volume, ph):
        ph = self.slope * ph + self.offset
        n = volume.shape[0]
        dv = (volume[1:] - volume[:-1]).clamp_min(1e-6)
        dph = (ph[1:] - ph[:-1]) / dv
        peak = dph.argmax()
        if n < self.min_points or dph[peak] < self.min_slope:
            # too few points or no inflection: the titration never reached equivalence
            return torch.stack([torch.tensor(-1.0), torch.tensor(0.0), torch.tensor(-1.0)])

        endpoint = 0.5 * (volume[peak] + volume[peak + 1])
        half = 0.5 * endpoint
        half_idx = 0
        for i in range(n):
            if volume[i] >= half:
                half_idx = i
                break
        pka = ph[half_idx]

        # a strong acid sits at low pH until close to equivalence and starts low
        # (a high first reading means the electrode had not settled: do not call it strong)
        strong = pka < 2.5 and not ph[0] > 3.0
        acid_class = torch.tensor(0.0) if strong else torch.tensor(1.0)
        return torch.stack([endpoint, pka, acid_class])


def model():
    torch.manual_seed(9)
    return EndpointFinder().eval()


def _curve(n, v_eq, pka, strong=False, c0=0.1, v0=25.0, cb=0.1, v_max=None, ph_start=None):
    v_max = v_max if v_max is not None else 2 * v_eq
    vol = torch.linspace(0.0, v_max, n)
    # simple charge balance approximation
    frac = vol / v_eq
    if strong:
        excess_acid = (c0 * v0 - cb * vol).clamp(min=1e-7) / (v0 + vol)
        excess_base = (cb * vol - c0 * v0).clamp(min=1e-7) / (v0 + vol)
        ph = torch.where(frac < 1, -torch.log10(excess_acid), 14 + torch.log10(excess_base))
    else:
        ratio = (frac / (1 - frac).clamp(min=1e-3)).clamp(min=1e-3)
        buffer_ph = pka + torch.log10(ratio)
        excess_base = (cb * vol - c0 * v0).clamp(min=1e-7) / (v0 + vol)
        ph = torch.where(frac < 0.999, buffer_ph, 14 + torch.log10(excess_base))
        ph = torch.maximum(ph, torch.full_like(ph, ph_start if ph_start else pka - 1.5))
    return vol, ph.clamp(0.5, 13.5)


def _unsettled(curve):
    vol, ph = curve
    return vol, torch.cat([torch.tensor([7.0]), ph[1:]])


def example_inputs():
    return _curve(60, 25.0, 4.76)


def dynamic_shapes():
    n = Dim("points", min=2, max=500)
    return ({0: n}, {0: n})


def verify_inputs():
    return [
        example_inputs(),                                # acetic acid: weak (pKa 4.76)
        _curve(60, 25.0, 0.0, strong=True),              # HCl: strong, starts near pH 1
        _curve(40, 25.0, 4.76, v_max=12.0),              # stopped well before equivalence: no steep slope, early return
        _curve(4, 25.0, 4.76),                           # only 4 points: early return on the point count
        _unsettled(_curve(50, 25.0, 0.0, strong=True)),  # HCl but first reading still pH 7: not called strong
    ]
