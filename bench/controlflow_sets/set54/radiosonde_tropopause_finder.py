"""Upper-air processing: WMO lapse-rate tropopause(s) from a radiosonde ascent.

Temperatures first get a small learned solar-radiation correction. The first
tropopause is the lowest level above 500 hPa where the lapse rate drops to
2 K/km or less and the mean lapse rate from that level to every level within
the next 2 km also stays at or below 2 K/km. Above it, if some layer cools by
more than 3 K/km to every level within 1 km, a second tropopause is searched
for above that layer with the same criterion (WMO 1957 definition).
"""
import torch
import torch.nn as nn


class RadiationCorrection(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1))

    def forward(self, pressure_hpa, height_m):
        feats = torch.stack([pressure_hpa / 1000.0, height_m / 30000.0], dim=-1)
        return 0.3 * torch.sigmoid(self.mlp(feats)).squeeze(-1)  # sensor heating, K


class TropopauseFinder(nn.Module):
    def __init__(self, max_lapse=2.0, layer_m=2000.0, second_lapse=3.0, second_layer_m=1000.0, min_levels=24):
        super().__init__()
        self.radiation = RadiationCorrection()
        self.max_lapse = max_lapse
        self.layer_m = layer_m
        self.second_lapse = second_lapse
        self.second_layer_m = second_layer_m
        self.min_levels = min_levels

    def _lapse(self, t, h, i, j):
        return -(t[j] - t[i]) / ((h[j] - h[i]) / 1000.0)  # K/km, positive when cooling with height

    def _stays_stable(self, t, h, i):
        for j in range(i + 1, t.shape[0]):
            if h[j] - h[i] > self.layer_m:
                break
            if self._lapse(t, h, i, j) > self.max_lapse:
                return False
        else:
            return False  # the ascent ends inside the 2 km layer: cannot confirm
        return True

    def _first_tropopause(self, p, t, h, start):
        for i in range(start, t.shape[0] - 1):
            if p[i] > 500.0:
                continue
            if self._lapse(t, h, i, i + 1) > self.max_lapse:
                continue
            if self._stays_stable(t, h, i):
                return i
        return -1

    def _second_tropopause(self, p, t, h, first):
        for k in range(first + 1, t.shape[0] - 1):
            cooling_layer = True
            for j in range(k + 1, t.shape[0]):
                if h[j] - h[k] > self.second_layer_m:
                    break
                if self._lapse(t, h, k, j) <= self.second_lapse:
                    cooling_layer = False
                    break
            if cooling_layer:
                return self._first_tropopause(p, t, h, j)
        return -1

    def forward(self, pressure_hpa, temp_c, height_m):
        t = temp_c - self.radiation(pressure_hpa, height_m)
        first = self._first_tropopause(pressure_hpa, t, height_m, 0)
        if first < 0:
            return torch.full((2,), -1.0), torch.full((2,), -1.0), torch.tensor(0), t

        heights = [height_m[first]]
        pressures = [pressure_hpa[first]]
        if pressure_hpa.shape[0] >= self.min_levels:
            second = self._second_tropopause(pressure_hpa, t, height_m, first)
        else:
            second = -1  # coarse ascent: the 1 km test is meaningless
        if second >= 0:
            heights.append(height_m[second])
            pressures.append(pressure_hpa[second])
        count = len(heights)
        while len(heights) < 2:
            heights.append(torch.tensor(-1.0))
            pressures.append(torch.tensor(-1.0))
        return torch.stack(heights), torch.stack(pressures), torch.tensor(count), t


def model():
    torch.manual_seed(500)
    return TropopauseFinder().eval()


def _ascent(n, layers, top_m=30000.0, surface_c=15.0, seed=0):
    """`layers`: list of (top height in m, lapse rate in K/km) from the ground up."""
    g = torch.Generator().manual_seed(seed)
    h = torch.linspace(0.0, top_m, n)
    t = torch.empty(n)
    for k in range(n):
        z, temp, base = float(h[k]), surface_c, 0.0
        for top, lapse in layers:
            dz = min(z, top) - base
            if dz <= 0:
                break
            temp -= lapse * dz / 1000.0
            base = top
        t[k] = temp
    t = t + 0.05 * torch.randn(n, generator=g)
    p = 1013.25 * torch.exp(-h / 7400.0)
    return p, t, h


def example_inputs():
    return _ascent(64, [(11000.0, 6.5), (20000.0, 0.0), (30000.0, -1.0)], seed=1)


def dynamic_shapes():
    n = torch.export.Dim("levels", min=16, max=256)
    return ({0: n}, {0: n}, {0: n})


def verify_inputs():
    double = [(10000.0, 6.5), (12500.0, 0.5), (16000.0, 5.0), (30000.0, -1.5)]
    return [
        example_inputs(),   # mid-latitude: one tropopause at ~11 km; no cooling layer above -> single
        _ascent(256, double, seed=2),
        # ^ max levels: first at ~10 km, 1 km cooling layer above, second at ~16 km
        _ascent(16, double, seed=3),
        # ^ min levels (2 km spacing): first found, coarse ascent skips the second search
        _ascent(40, [(6000.0, 6.5), (7000.0, 1.0), (17000.0, 6.5), (30000.0, -2.0)], seed=4),
        # ^ levels below 500 hPa skipped (continue); a 1 km stable layer at 6 km fails the 2 km test; tropopause at 17 km
        _ascent(48, [(30000.0, 6.5)], surface_c=30.0, seed=5),
        # ^ no stable layer anywhere -> no tropopause (early return)
        _ascent(32, [(11000.0, 6.5), (28500.0, 5.0), (30000.0, 0.0)], seed=6),
        # ^ only a stable cap within 2 km of the top -> for/else "cannot confirm" -> none
        _ascent(64, [(9000.0, 7.0), (11000.0, 0.0), (11400.0, 5.0), (30000.0, 0.5)], seed=7),
        # ^ a shallow cooling layer (thinner than 1 km) above the first -> no second tropopause
    ]
