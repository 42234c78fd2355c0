"""Lake-sediment core varve (annual lamina) counter.

Input: a downcore grey-scale / density scan.  The profile is smoothed, light
laminae are located as local minima (too-thin ones are rejected as noise),
varve thicknesses are measured between them, and the first anomalously thick
layer is flagged as a turbidite (flood event).  A small net summarizes the
thickness record for the age-depth model.
"""
import torch
import torch.nn as nn


class VarveCounter(nn.Module):
    def __init__(self, min_thickness=3, turbidite_factor=3.0, smooth_width=3):
        super().__init__()
        self.min_thickness = min_thickness
        self.turbidite_factor = turbidite_factor
        self.register_buffer("kernel", torch.ones(1, 1, smooth_width) / smooth_width)
        self.summary = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 2))

    def smooth(self, scan):
        pad = self.kernel.shape[-1] // 2
        x = nn.functional.pad(scan.view(1, 1, -1), (pad, pad), mode="replicate")
        return nn.functional.conv1d(x, self.kernel).view(-1)

    def find_light_laminae(self, s):
        bounds = []
        for i in range(1, s.shape[0] - 1):
            if s[i] < s[i - 1] and s[i] <= s[i + 1]:
                if bounds and i - bounds[-1] < self.min_thickness:
                    continue  # too close to the previous lamina: scanner noise
                bounds.append(i)
        return bounds

    def first_turbidite(self, thick):
        med = thick.median()
        for k in range(thick.shape[0]):
            if thick[k] > self.turbidite_factor * med:
                turbidite = k
                break
        else:
            turbidite = -1
        return turbidite

    def forward(self, scan):
        s = self.smooth(scan)
        bounds = self.find_light_laminae(s)
        if len(bounds) < 2:
            return torch.tensor(0), torch.zeros(2), torch.tensor(-1)
        thick = torch.stack([torch.tensor(float(b - a)) for a, b in zip(bounds[:-1], bounds[1:])])
        turbidite = self.first_turbidite(thick)
        stats = torch.stack([thick.mean(), thick.std(unbiased=False), thick.max()]) / 10.0
        return torch.tensor(len(thick)), self.summary(stats), torch.tensor(turbidite)


def model():
    torch.manual_seed(5120)
    return VarveCounter().eval()


def _core(n, period, seed, flood_at=None, flood_len=0, noise=0.05):
    g = torch.Generator().manual_seed(seed)
    depth = torch.arange(n, dtype=torch.float32)
    scan = torch.cos(2 * torch.pi * depth / period) + noise * torch.randn(n, generator=g)
    if flood_at is not None:
        scan[flood_at:flood_at + flood_len] = 1.0 + 0.01 * torch.arange(flood_len, dtype=torch.float32)
    return scan


def example_inputs():
    return (_core(120, 8.0, 1, flood_at=60, flood_len=30),)


def dynamic_shapes():
    return ({0: torch.export.Dim("depth_px", min=2, max=512)},)


def verify_inputs():
    return [
        # example: regular varves with a thick flood layer -> turbidite found (break)
        example_inputs(),
        # min: two pixels, no interior minimum -> early return
        (torch.tensor([0.3, 0.7]),),
        # max: long regular record, noisy minima rejected (continue), no turbidite (else)
        (_core(512, 12.0, 2, noise=0.3),),
    ]
