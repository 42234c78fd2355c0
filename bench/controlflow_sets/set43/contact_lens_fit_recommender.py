"""Soft contact-lens fitting assistant for an optometry practice.

Inputs: repeated keratometer readings (flat K, steep K in dioptres) and the
spectacle refraction (sphere, cylinder, axis). Readings that disagree too much
send the patient back for re-measurement; otherwise the spectacle power is
vertex-corrected, a toric or spherical design is chosen, and a small MLP
scores comfort for three base-curve families.
Constructs: 1, 2, 3, 7
"""
import torch
import torch.nn as nn


def vertex_correct(power, vertex_mm):
    """Spectacle-plane power -> corneal-plane power (only matters above 4 D)."""
    if power.abs() > 4.0:
        return power / (1.0 - vertex_mm / 1000.0 * power)
    return power


class DesignSelector(nn.Module):
    """Toric lens for meaningful astigmatism, spherical otherwise."""

    def __init__(self, toric_cyl_threshold=-0.75):
        super().__init__()
        self.toric_cyl_threshold = toric_cyl_threshold

    def forward(self, cylinder, corneal_astig):
        if cylinder <= self.toric_cyl_threshold and corneal_astig > 0.5:
            return torch.tensor(1.0)
        return torch.tensor(0.0)


class ContactLensFitter(nn.Module):
    def __init__(self, vertex_mm=12.0, max_k_spread=0.5):
        super().__init__()
        self.vertex_mm = vertex_mm
        self.max_k_spread = max_k_spread
        self.design = DesignSelector()
        self.comfort = nn.Sequential(nn.Linear(5, 16), nn.Tanh(), nn.Linear(16, 3))

    def forward(self, k_readings, refraction):
        spread = k_readings.max(dim=0).values - k_readings.min(dim=0).values
        if (spread > self.max_k_spread).any():
            # unreliable keratometry: ask for a re-measurement, no prescription
            return torch.zeros(3), torch.zeros(3), torch.ones(())

        k = k_readings.mean(dim=0)
        flat_k, steep_k = k[0], k[1]
        sphere, cyl = refraction[0], refraction[1]

        toric = self.design(cyl, steep_k - flat_k)
        if toric > 0:
            power = vertex_correct(sphere, self.vertex_mm)
            lens_cyl = vertex_correct(sphere + cyl, self.vertex_mm) - power
        else:
            # spherical equivalent
            power = vertex_correct(sphere + cyl / 2.0, self.vertex_mm)
            lens_cyl = torch.tensor(0.0)

        base_curve_mm = 337.5 / flat_k + 0.8
        feats = torch.stack([flat_k / 45.0, steep_k / 45.0, power / 10.0, lens_cyl, toric])
        comfort = torch.softmax(self.comfort(feats), dim=-1)
        rx = torch.stack([base_curve_mm, power, lens_cyl])
        return rx, comfort, torch.zeros(())


def model():
    torch.manual_seed(4)
    return ContactLensFitter().eval()


def _ks(n, flat, steep, jitter=0.1):
    j = torch.linspace(-jitter, jitter, n)
    return torch.stack([flat + j, steep - j], dim=1)


def example_inputs():
    return (_ks(3, 43.0, 44.5), torch.tensor([-5.5, -1.25, 180.0]))


def dynamic_shapes():
    return ({0: torch.export.Dim("readings", min=2, max=16)}, None)


def verify_inputs():
    return [
        example_inputs(),                                         # toric, high myope: vertex correction applied
        (_ks(4, 42.0, 42.25), torch.tensor([-2.0, -0.25, 90.0])), # spherical, low power: no vertex correction
        (_ks(2, 43.0, 43.1), torch.tensor([-3.0, -1.5, 10.0])),   # refractive cyl but round cornea: `and` fails -> spherical
        (_ks(5, 44.0, 45.0, jitter=0.6), torch.tensor([-1.0, 0.0, 0.0])),  # spread 1.2 D -> re-measure early return
        (_ks(6, 41.5, 43.5), torch.tensor([-1.0, -2.0, 45.0])),   # toric with low sphere: no vertex correction in toric branch
    ]
