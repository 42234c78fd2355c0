"""Well-log zonation and lithology classification (oil & gas petrophysics) (kind X).

Input: a well log sampled every 0.5 ft, (D, 4) = (gamma ray API, log10 deep resistivity,
bulk density g/cc, neutron porosity v/v), with -999.25 as the null value.  The log is
walked top to bottom: rows with a null curve are skipped, an all-null row marks the end
of the logged interval (break), and a new zone starts when a sample departs from the
running mean of the current zone by more than the curve tolerance (once the zone has its
minimum thickness).  Each zone's mean is classified by a lithology submodule that adds a
gas / coal correction for low-density, low-neutron readings.  A homogeneous log returns
early with a single zone.

constructs: 1 (if on tensor predicates), 2 (early return), 3 (and on tensor predicates),
            5 (for over dynamic D, Python list of zones, torch.stack), 6 (continue / break
            on tensor conditions), 7 (submodule and helper with control flow)
"""
import torch
import torch.nn as nn

NULL = -999.25


class LithologyHead(nn.Module):
    """sand, shale, limestone, coal"""

    def __init__(self, hidden=16):
        super().__init__()
        self.register_buffer("centre", torch.tensor([60.0, 1.0, 2.4, 0.2]))
        self.register_buffer("spread", torch.tensor([40.0, 1.0, 0.3, 0.15]))
        self.mlp = nn.Sequential(nn.Linear(4, hidden), nn.ReLU(), nn.Linear(hidden, 4))

    def forward(self, zone_mean):
        logits = self.mlp((zone_mean - self.centre) / self.spread)
        if zone_mean[2] < 1.8 and zone_mean[3] > 0.35:
            logits = logits + torch.tensor([0.0, 0.0, 0.0, 5.0])   # coal: very light, high apparent porosity
        return torch.softmax(logits, dim=0)


def departs(sample, zone_sum, zone_n, tol):
    mean = zone_sum / zone_n
    return ((sample - mean).abs() > tol).any()


class WellLogZoner(nn.Module):
    def __init__(self, min_samples=3):
        super().__init__()
        self.register_buffer("tol", torch.tensor([25.0, 0.5, 0.15, 0.08]))
        self.min_samples = min_samples
        self.lith = LithologyHead()

    def forward(self, log):
        bounds = []
        means = []
        start = 0
        zone_sum = torch.zeros(4)
        zone_n = 0
        last = 0
        for d in range(log.shape[0]):
            sample = log[d]
            if (sample < -900).all():
                break
            last = d + 1
            if (sample < -900).any():
                continue
            if zone_n >= self.min_samples and departs(sample, zone_sum, zone_n, self.tol):
                bounds.append(torch.tensor([start, d]))
                means.append(zone_sum / zone_n)
                start, zone_sum, zone_n = d, torch.zeros(4), 0
            zone_sum = zone_sum + sample
            zone_n += 1
        bounds.append(torch.tensor([start, last]))
        means.append(zone_sum / max(zone_n, 1))

        if len(bounds) == 1:
            return torch.stack(bounds), self.lith(means[0]).unsqueeze(0)
        probs = torch.stack([self.lith(m) for m in means])
        return torch.stack(bounds), probs


def model():
    torch.manual_seed(317)
    return WellLogZoner().eval()


SAND = [45.0, 1.3, 2.30, 0.18]
SHALE = [110.0, 0.4, 2.55, 0.32]
LIME = [20.0, 2.1, 2.68, 0.06]
COAL = [35.0, 2.5, 1.45, 0.45]


def _log(layers, seed, nulls=(), tail_nulls=0):
    """layers: list of (lithology, n_samples); nulls: (row, col) set to NULL."""
    g = torch.Generator().manual_seed(seed)
    rows = []
    for lith, n in layers:
        base = torch.tensor(lith).expand(n, 4)
        rows.append(base + torch.tensor([2.0, 0.05, 0.01, 0.005]) * torch.randn(n, 4, generator=g))
    x = torch.cat(rows)
    for r, c in nulls:
        x[r, c] = NULL
    if tail_nulls:
        x = torch.cat([x, torch.full((tail_nulls, 4), NULL)])
    return (x,)


def example_inputs():
    return _log([(SAND, 12), (SHALE, 10), (LIME, 8)], 0, nulls=[(5, 1), (15, 3)])


def dynamic_shapes():
    return ({0: torch.export.Dim("depth", min=4, max=4096)},)


def verify_inputs():
    return [
        example_inputs(),                                    # 3 zones, partial-null rows skipped (continue), no break
        _log([(SHALE, 20)], 1),                              # homogeneous: single zone -> early return
        _log([(SAND, 6), (COAL, 5), (SHALE, 9)], 2, tail_nulls=4),   # coal correction in submodule; all-null tail -> break
        _log([(LIME, 2), (SHALE, 7)], 3),                    # first bed thinner than min_samples: absorbs one shale sample, then splits
        _log([(SAND, 5), (SHALE, 3), (SAND, 1), (LIME, 6)], 4, nulls=[(0, 0)]),   # thin beds merged / split; null in first row
    ]
