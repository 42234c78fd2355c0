"""Chocolate tempering machine: picks the next bowl setpoint from probe logs.

A tempering machine melts chocolate, cools it to crystallise form-V seeds and
re-warms it to working temperature.  Several probes log the bowl temperature;
the controller decides the next setpoint per probe and a small net scores the
expected temper quality (snap/gloss) from summary features.

KIND T.  Constructs: 1 (if/elif/else on reductions, .any()), 2 (early return,
variable assigned in only some branches), 3 (and/or/not on tensor predicates),
8 (branch on the dynamic log length), 9 (chocolate type config dict).
"""
import torch
import torch.nn as nn
from torch.export import Dim

KIND = "T"
CONSTRUCTS = (1, 2, 3, 8, 9)

CURVES = {
    # melt, working temperature (deg C)
    "dark": (48.0, 31.5),
    "milk": (45.0, 30.0),
    "white": (42.0, 28.5),
}


class TemperQualityHead(nn.Module):
    def __init__(self, n_feat=6, hidden=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_feat, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, feats):
        return torch.sigmoid(self.net(feats)).squeeze(-1)


class ChocolateTemperingController(nn.Module):
    def __init__(self, chocolate="dark", window=32):
        super().__init__()
        self.melt_temp, self.work_temp = CURVES[chocolate]
        self.window = window
        self.head = TemperQualityHead()

    def forward(self, temps):
        # temps: (probes, T) bowl temperature log in deg C, newest last
        if temps.shape[1] > self.window:
            recent = temps[:, -self.window:]
        else:
            recent = temps

        peak = temps.max()
        if peak < self.melt_temp - 2.0:
            # never fully melted: old crystals survive, go back to melting
            setpoint = torch.full((temps.shape[0],), self.melt_temp)
            return setpoint, torch.zeros(temps.shape[0])

        current = recent[:, -1]
        slope = (recent[:, -1] - recent[:, 0]) / recent.shape[1]
        too_warm = current.mean() > self.work_temp + 1.0
        too_cold = current.mean() < self.work_temp - 1.0

        setpoint = current.clone()
        if too_warm and slope.mean() < 0:
            # still on the cooling leg: keep pulling heat out
            setpoint = current - 0.5
        elif too_cold or (current < self.work_temp - 2.0).any():
            # over-cooled (or one cold spot): rework up to working temperature
            setpoint = torch.full_like(current, self.work_temp)

        feats = torch.stack([
            peak.expand_as(current) / 50.0,
            current / 50.0,
            slope,
            recent.std(dim=1),
            recent.min(dim=1).values / 50.0,
            recent.mean(dim=1) / 50.0,
        ], dim=1)
        quality = self.head(feats)
        return setpoint, quality


def model():
    torch.manual_seed(61001)
    return ChocolateTemperingController("dark").eval()


def make_log(peak, end, n, probes=3, jitter=0.0, seed=0):
    g = torch.Generator().manual_seed(seed)
    melt = torch.linspace(35.0, peak, n // 2)
    cool = torch.linspace(peak, end, n - n // 2)
    base = torch.cat([melt, cool])
    noise = 0.05 * torch.randn(probes, n, generator=g)
    offs = torch.linspace(-jitter, jitter, probes)[:, None]
    return base[None, :] + noise + offs


def example_inputs():
    return (make_log(50.0, 31.6, 40, seed=1),)


def dynamic_shapes():
    return ({1: Dim("steps", min=4, max=256)},)


def verify_inputs():
    ex = example_inputs()
    # on target (mean within +-1, no cold probe), long log (> window): setpoint kept
    v = [ex]
    # never melted (peak 40 < 46): early return; short log (<= window)
    v.append((make_log(40.0, 32.0, 20, seed=2),))
    # too warm and still cooling (slope < 0): keep cooling; long log
    v.append((make_log(50.0, 36.0, 48, seed=3),))
    # too warm but rising again (slope > 0 over the recent window): not cooling ->
    # elif: not too cold, no cold probe -> setpoint kept; short log
    rising = torch.cat([make_log(50.0, 30.0, 20, seed=4), torch.linspace(30.5, 36.0, 10).expand(3, 10)], dim=1)
    v.append((rising,))
    # too cold (mean 28 < 30.5): rework heat; short log
    v.append((make_log(49.0, 28.0, 24, seed=5),))
    # mean ok (31.5) but one probe at 28.5 (< 29.5): cold spot -> rework; long log
    v.append((make_log(50.0, 31.5, 64, jitter=3.0, seed=6),))
    return v
