"""Insulated composite rod: a small network predicts the local thermal diffusivity of each
segment from its material descriptors, then an explicit finite-difference solver steps
the heat equation until the temperature spread falls below a tolerance (or a step budget
runs out). Long rods are simulated on a 2x coarser grid and interpolated back.

Kind T. Constructs: 1 (if on a tensor reduction), 2 (early return when already uniform),
3 (and of a tensor predicate and a Python counter in the while), 4 (while on a tensor
condition with loop-carried temperature), 8 (branch on the dynamic rod length),
9 (static step budget / stability factor, config flag for the coarse grid).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class HeatRod(nn.Module):
    def __init__(self, tol=0.5, max_steps=150, coarse_above=64, allow_coarse=True):
        super().__init__()
        self.tol = tol
        self.max_steps = max_steps
        self.coarse_above = coarse_above
        self.allow_coarse = allow_coarse
        self.diffusivity = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 1))

    def simulate(self, temp, k):
        dt = 0.45 / k.max()          # explicit-scheme stability limit (dx = 1)
        step = 0
        while (temp.max() - temp.min()) > self.tol and step < self.max_steps:
            padded = F.pad(temp[None, None], (1, 1), mode="replicate")[0, 0]   # insulated ends
            lap = padded[2:] - 2.0 * temp + padded[:-2]
            temp = temp + dt * k * lap
            step += 1
        return temp, step

    def forward(self, temp0, material):
        # temp0: (N,) initial temperatures [C]; material: (N, 3) per-segment descriptors
        if (temp0.max() - temp0.min()) <= self.tol:
            return temp0.clone(), torch.zeros(())
        k = 0.2 + 0.8 * torch.sigmoid(self.diffusivity(material).squeeze(-1))
        n = temp0.shape[0]
        if self.allow_coarse and n > self.coarse_above:
            t_c = F.avg_pool1d(temp0[None, None], 2, ceil_mode=True)[0, 0]
            k_c = F.avg_pool1d(k[None, None], 2, ceil_mode=True)[0, 0] / 4.0   # dx = 2
            t_c, steps = self.simulate(t_c, k_c)
            temp = F.interpolate(t_c[None, None], size=n, mode="linear", align_corners=False)[0, 0]
        else:
            temp, steps = self.simulate(temp0, k)
        return temp, torch.tensor(float(steps))


def model():
    torch.manual_seed(3903)
    return HeatRod().eval()


def _make_rod(seed, n, hot_at, hot=80.0, base=20.0):
    g = torch.Generator().manual_seed(seed)
    temp = torch.full((n,), base)
    temp[hot_at[0]:hot_at[1]] = hot
    material = torch.randn(n, 3, generator=g)
    return temp, material


def example_inputs():
    # 24 segments (fine grid), hot spot in the middle: converges within the step budget
    return _make_rod(1, 24, (10, 14), hot=32.0)


def dynamic_shapes():
    n = torch.export.Dim("segments", min=4, max=96)
    return ({0: n}, {0: n})


def verify_inputs():
    ex = example_inputs()   # the example: path described in example_inputs()
    # already uniform (spread 0.2 <= tol): early return
    uni_t, uni_m = _make_rod(2, 16, (0, 0))
    uni_t = uni_t + torch.linspace(0.0, 0.2, 16)
    uniform = (uni_t, uni_m)
    # long rod (80 > 64): coarse grid, hits the 150-step budget (while ends on the counter)
    long = _make_rod(3, 80, (5, 20), hot=300.0)
    # short rod of 4: converges after a few steps
    short = _make_rod(4, 4, (0, 1), hot=22.0)
    # one step only: spread 0.9 drops below tol after the first update
    one = _make_rod(5, 6, (2, 3), hot=20.9)
    return [ex, uniform, long, short, one]
