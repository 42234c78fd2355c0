"""Group-sequential A/B test monitor: daily cumulative two-proportion z-test
with O'Brien-Fleming efficacy bounds and a futility stop; days without
traffic are skipped."""
import math

import torch
import torch.nn as nn
from torch.export import Dim


class SequentialABTest(nn.Module):
    def __init__(self, z_final=1.96, futility_z=0.3, two_sided=True):
        super().__init__()
        self.z_final = z_final
        self.futility_z = futility_z
        self.two_sided = two_sided

    def z_stat(self, conv_a, n_a, conv_b, n_b):
        p_a = conv_a / n_a
        p_b = conv_b / n_b
        pooled = (conv_a + conv_b) / (n_a + n_b)
        se = torch.sqrt(pooled * (1 - pooled) * (1 / n_a + 1 / n_b)).clamp(min=1e-9)
        return (p_b - p_a) / se

    def forward(self, daily):
        # daily: [D, 4] = conversions A, visitors A, conversions B, visitors B
        D = daily.shape[0]
        cum = torch.zeros(4)
        zs = []
        decision = torch.tensor(0.0)  # 0 = keep running, 1 = B wins, -1 = A wins, 2 = futile
        for d in range(D):
            if daily[d, 1] + daily[d, 3] == 0:
                continue  # no traffic that day (outage / holiday)
            cum = cum + daily[d]
            z = self.z_stat(cum[0], cum[1], cum[2], cum[3])
            zs.append(z)
            bound = self.z_final * math.sqrt(D / (d + 1))
            stat = z.abs() if self.two_sided else z
            if stat > bound:
                decision = torch.sign(z)
                break
            if d + 1 > D // 2 and z.abs() < self.futility_z:
                decision = torch.tensor(2.0)
                break
        if len(zs) == 0:
            return torch.zeros(1), decision
        return torch.stack(zs), decision


def model():
    torch.manual_seed(4909)
    return SequentialABTest().eval()


def _days(D, seed, pa, pb, visitors=2000, dark=()):
    g = torch.Generator().manual_seed(seed)
    va = torch.full((D,), float(visitors))
    vb = torch.full((D,), float(visitors))
    ca = torch.binomial(va, torch.full((D,), pa), generator=g)
    cb = torch.binomial(vb, torch.full((D,), pb), generator=g)
    x = torch.stack([ca, va, cb, vb], 1)
    for d in dark:
        x[d] = 0.0
    return (x,)


def example_inputs():
    # clear lift for B: efficacy stop part-way through
    return _days(28, 81, 0.05, 0.065, dark=(2,))


def dynamic_shapes():
    return ({0: Dim("days", min=2, max=90)},)


def verify_inputs():
    return [
        example_inputs(),
        _days(14, 82, 0.05, 0.05),        # null effect: futility stop in second half (or runs out)
        _days(10, 83, 0.08, 0.05),        # A better -> efficacy stop with negative sign
        _days(20, 84, 0.050, 0.052, visitors=300),  # small lift, low traffic: never stops
        _days(3, 85, 0.05, 0.05, dark=(0, 1, 2)),   # all days dark -> every day skipped
    ]
