"""Boom-sprayer section control for a tractor.

Each boom section gets an application rate from per-product learned heads
(herbicide, fungicide, foliar N) that look at the camera weed/disease
features under that section.  Sections already covered (overlap with the
as-applied map) are shut off, wide booms get a turn compensation at the
boom ends, and overspeed scales the rate down to what the pump can deliver.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ProductHead(nn.Module):
    def __init__(self, n_feat=4):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_feat, 12), nn.ReLU(), nn.Linear(12, 1))

    def forward(self, feats):
        return F.softplus(self.net(feats)).squeeze(-1)   # L/ha, >= 0


class SectionController(nn.Module):
    def __init__(self, products=("herbicide", "fungicide", "foliar_n"),
                 max_speed=18.0, overlap_tol=0.5, allow_overspeed=False):
        super().__init__()
        self.products = nn.ModuleList([ProductHead() for _ in products])
        self.max_speed = max_speed
        self.overlap_tol = overlap_tol
        self.allow_overspeed = allow_overspeed

    def forward(self, overlap, speed, weeds):
        n_sections = weeds.shape[0]
        if speed.item() < 1.0:
            # tractor stationary: master valve closed
            return torch.zeros(n_sections), torch.zeros(())

        rate = torch.stack([head(weeds) for head in self.products], dim=0).sum(0)
        on = overlap < self.overlap_tol

        if n_sections > 24:
            # wide boom: outer sections sweep faster in headland turns
            pos = torch.linspace(-1.0, 1.0, n_sections)
            rate = rate * (1.0 + 0.1 * pos.abs())

        if speed > self.max_speed and not self.allow_overspeed:
            rate = rate * (self.max_speed / speed)

        applied = rate * on
        if not on.any():
            total = torch.zeros(())
        else:
            total = applied.sum() * speed.squeeze() / 36.0
        return applied, total


def model():
    torch.manual_seed(504)
    return SectionController().eval()


def _field(n, speed, covered=None, seed=0):
    g = torch.Generator().manual_seed(seed)
    overlap = torch.rand(n, generator=g) * 0.4
    if covered == "all":
        overlap = overlap + 0.6
    elif covered == "half":
        overlap[: n // 2] += 0.6
    return overlap, torch.tensor([speed]), torch.rand(n, 4, generator=g)


def example_inputs():
    return _field(12, 10.0, covered="half", seed=1)


def dynamic_shapes():
    sec = torch.export.Dim("sections", min=2, max=48)
    return ({0: sec}, None, {0: sec})


def verify_inputs():
    return [
        example_inputs(),                       # narrow boom, normal speed, half the sections off
        _field(2, 0.5, seed=2),                 # stationary -> early return, all closed
        _field(48, 22.0, seed=3),               # wide boom + overspeed -> both rate corrections
        _field(30, 12.0, covered="all", seed=4),  # wide boom, all covered -> total 0
        _field(2, 25.0, covered="half", seed=5),  # narrow boom, overspeed
    ]
