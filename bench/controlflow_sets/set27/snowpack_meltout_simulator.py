"""Spring snowmelt at a batch of mountain snow-course sites.

Degree-day model: each day the air temperature rises by the site's seasonal
warming rate, melt is proportional to positive degrees, and a small learned
model adds sublimation from wind/aspect features. Stops once every site is
snow-free, or after `max_days` (int64 tensor) days. Sites whose season never
warms are rejected up front. Returns one (temperature, fraction of the
initial snowpack lost) row per simulated day and site, and the fraction of
snow remaining.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SublimationModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 1)

    def forward(self, swe_share, temp_c, exposure):
        feats = torch.stack([swe_share, temp_c / 10.0, exposure], dim=-1)
        return 0.8 * torch.sigmoid(self.lin(feats)).squeeze(-1)


class SnowpackMeltoutSimulator(nn.Module):
    def __init__(self, degree_day_factor=4.0):
        super().__init__()
        self.ddf = degree_day_factor  # mm water equivalent per degree-day
        self.sublimation = SublimationModel()

    def forward(self, swe_mm, start_temp_c, warming_c_per_day, exposure, max_days):
        # swe_mm, start_temp_c, warming_c_per_day, exposure: [B]; max_days: int64 scalar
        if (warming_c_per_day <= 0.0).any():
            return torch.zeros(0, swe_mm.shape[0], 2), torch.ones_like(swe_mm)  # season never warms
        swe = swe_mm
        rows = []
        for day in range(int(max_days.item())):
            temp = start_temp_c + warming_c_per_day * day
            loss = self.ddf * F.softplus(temp, beta=2.0) + self.sublimation(swe / swe_mm, temp, exposure)
            if (swe <= loss).all():
                # last snow disappears today everywhere
                rows.append(torch.stack([temp, swe / swe_mm], dim=-1))
                swe = torch.zeros_like(swe)
                break
            lost = torch.minimum(loss, swe)
            swe = swe - lost
            rows.append(torch.stack([temp, lost / swe_mm], dim=-1))
        if len(rows) == 0:
            return torch.zeros(0, swe_mm.shape[0], 2), torch.ones_like(swe_mm)  # nothing simulated
        return torch.stack(rows), swe / swe_mm


def model():
    torch.manual_seed(0)
    return SnowpackMeltoutSimulator().eval()


def _sites(n, swe_lo, swe_hi, days, seed):
    g = torch.Generator().manual_seed(seed)
    swe = swe_lo + (swe_hi - swe_lo) * torch.rand(n, generator=g)
    start = -6.0 + 4.0 * torch.rand(n, generator=g)
    warming = 0.2 + 0.3 * torch.rand(n, generator=g)
    exposure = torch.rand(n, generator=g)
    return swe, start, warming, exposure, torch.tensor(days, dtype=torch.int64)


def example_inputs():
    return _sites(4, 100.0, 300.0, 60, 0)


def dynamic_shapes():
    B = torch.export.Dim("sites", min=2, max=256)
    return ({0: B}, {0: B}, {0: B}, {0: B}, None)


def verify_inputs():
    frozen = _sites(3, 100.0, 300.0, 60, 1)
    frozen[2][1] = -0.1  # a north-facing site that keeps cooling
    return [
        frozen,
        _sites(3, 100.0, 300.0, 0, 2),      # zero days requested
        _sites(3, 100.0, 300.0, 1, 3),      # a single day, snow remains
        _sites(2, 0.2, 0.5, 30, 4),         # a dusting: gone within two days
        _sites(5, 50.0, 250.0, 120, 5),     # full melt-out of every site
        _sites(4, 200.0, 400.0, 14, 6),     # two weeks, still snow left
    ]
