"""CT automatic tube-current modulation from the localizer (scout) scan.

For every slice of the planned scan we estimate the water-equivalent diameter
from the scout attenuation profile and pick a tube current (mA) that keeps the
image noise near a reference noise index. Slices with metal get extra headroom,
children get a lower noise index, and an optional angular (AP vs lateral)
modulation splits each slice current into two projections.

Kind: T.  Constructs: 1, 2, 5, 7, 9.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class TubeCurrentModulator(nn.Module):
    def __init__(self, n_det=16, base_ma=200.0, min_ma=20.0, max_ma=650.0,
                 metal_threshold=4.5, angular_modulation=True):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(n_det, 32), nn.Tanh(), nn.Linear(32, 2))
        self.base_ma = base_ma
        self.min_ma = min_ma
        self.max_ma = max_ma
        self.metal_threshold = metal_threshold
        self.angular_modulation = angular_modulation

    def reference_noise(self, wed_cm):
        # paediatric protocol: fixed, lower noise index
        if wed_cm.mean() < 20.0:
            return torch.tensor(8.0)
        ni = 11.0 + 0.1 * (wed_cm.mean() - 20.0)
        return ni.clamp(max=15.0)

    def forward(self, scout):
        # scout: [S, n_det] line integrals across the detector for each slice
        wed = 8.0 * scout.mean(dim=1)  # water-equivalent diameter in cm
        noise_index = self.reference_noise(wed)
        feats = self.encoder(scout)

        currents = []
        for i in range(scout.shape[0]):
            ma = self.base_ma * torch.exp(0.07 * (wed[i] - 25.0)) * (10.0 / noise_index) ** 2
            ma = ma * (1.0 + 0.05 * torch.tanh(feats[i, 0]))
            if scout[i].max() > self.metal_threshold:
                # implants / dental fillings: more photons against streaks
                ma = ma * 1.25
            currents.append(ma)
        ma = torch.stack(currents).clamp(self.min_ma, self.max_ma)

        ap_lat_ratio = torch.ones_like(ma)
        if self.angular_modulation:
            ap_lat_ratio = 1.0 + 0.1 * torch.tanh(feats[:, 1])
        per_view = torch.stack([ma * ap_lat_ratio, ma / ap_lat_ratio], dim=1)
        return per_view, noise_index


def model():
    torch.manual_seed(620)
    return TubeCurrentModulator().eval()


def _scout(seed, slices, level, metal_slices=()):
    g = torch.Generator().manual_seed(seed)
    s = level + 0.5 * torch.rand(slices, 16, generator=g)
    for k in metal_slices:
        s[k, 7] = 7.0
    return s


def example_inputs():
    return (_scout(1, 24, 3.0),)


def dynamic_shapes():
    return ({0: Dim("slices", min=2, max=128)},)


def verify_inputs():
    return [
        example_inputs(),                        # adult (wed ~26 cm), no metal: adult noise index, metal branch never
        (_scout(2, 40, 3.0, metal_slices=(5, 6, 30)),),  # adult with hip implant: metal branch on 3 slices
        (_scout(3, 12, 1.4),),                   # child (wed ~13 cm): early return of paediatric noise index
        (_scout(4, 2, 1.4, metal_slices=(1,)),), # 2-slice child scan, metal on one slice
        (_scout(5, 64, 3.8),),                   # large adult (wed ~32 cm): noise index clamp, mA hits max
    ]
