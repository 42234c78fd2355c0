"""Cosmetics shade finder: skin-patch pixels -> CIELAB, shadow rejection,
nearest foundation shades in the catalog by Delta-E, blend two shades when no
single shade is close enough; plus a learned undertone classifier."""
import torch
import torch.nn as nn
from torch.export import Dim


def srgb_to_linear(c):
    return torch.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def rgb_to_lab(rgb):
    lin = srgb_to_linear(rgb.clamp(0.0, 1.0))
    m = torch.tensor([[0.4124, 0.3576, 0.1805],
                      [0.2126, 0.7152, 0.0722],
                      [0.0193, 0.1192, 0.9505]])
    xyz = lin @ m.T / torch.tensor([0.9505, 1.0, 1.089])
    f = torch.where(xyz > 0.008856, xyz.clamp(min=1e-6) ** (1.0 / 3.0), 7.787 * xyz + 16.0 / 116.0)
    L = 116.0 * f[:, 1] - 16.0
    a = 500.0 * (f[:, 0] - f[:, 1])
    b = 200.0 * (f[:, 1] - f[:, 2])
    return torch.stack([L, a, b], dim=1)


class ShadeMatcher(nn.Module):
    def __init__(self, tol=4.0, max_pixels=256, shadow_L=35.0):
        super().__init__()
        self.tol = tol
        self.max_pixels = max_pixels
        self.shadow_L = shadow_L
        self.undertone = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 3))

    def skin_lab(self, pixels):
        if pixels.shape[0] > self.max_pixels:
            pixels = pixels[:: 2]  # decimate large patches
        lab = rgb_to_lab(pixels)
        lit = lab[:, 0] > self.shadow_L
        if lit.sum() >= 4:
            lab = lab[lit]
        return lab.mean(dim=0)

    def forward(self, pixels, catalog_lab):
        # pixels: [P, 3] sRGB in 0..1, catalog_lab: [S, 3]
        skin = self.skin_lab(pixels)
        de = (catalog_lab - skin).norm(dim=1)
        best = de.topk(2, largest=False)
        weights = torch.zeros(catalog_lab.shape[0])
        if best.values[0] > self.tol:
            # no single shade is close: mix the two nearest, inverse-distance weighted
            w = 1.0 / best.values
            weights = weights.index_put((best.indices,), w / w.sum())
        else:
            weights[best.indices[0]] = 1.0
        return weights, self.undertone(skin / 100.0)


def model():
    torch.manual_seed(4907)
    return ShadeMatcher().eval()


def _catalog(S, seed):
    g = torch.Generator().manual_seed(seed)
    L = 30.0 + 55.0 * torch.rand(S, generator=g)
    a = 5.0 + 15.0 * torch.rand(S, generator=g)
    b = 10.0 + 20.0 * torch.rand(S, generator=g)
    return torch.stack([L, a, b], 1)


def _patch(P, seed, base=(0.85, 0.65, 0.55), shadow_frac=0.2):
    g = torch.Generator().manual_seed(seed)
    px = torch.tensor(base) + 0.02 * torch.randn(P, 3, generator=g)
    n_sh = int(P * shadow_frac)
    px[:n_sh] *= 0.25
    return px.clamp(0.0, 1.0)


def _with_shade_near(pixels, catalog):
    # put one catalog shade right at this patch's colour
    cat = catalog.clone()
    cat[3] = model().skin_lab(pixels) + torch.tensor([1.0, -0.5, 0.5])
    return cat


def example_inputs():
    # medium patch with shadows, sparse catalog -> two-shade blend
    return _patch(60, 61), _catalog(5, 62)


def dynamic_shapes():
    return ({0: Dim("pixels", min=8, max=1024)}, {0: Dim("shades", min=4, max=64)})


def verify_inputs():
    p2 = _patch(400, 63)
    p3 = _patch(30, 65, base=(0.6, 0.45, 0.35), shadow_frac=0.9)
    return [
        example_inputs(),
        (p2, _with_shade_near(p2, _catalog(40, 64))),   # >256 px decimated; exact match -> single shade
        (p3, _with_shade_near(p3, _catalog(10, 66))),   # almost all shadow -> keep all pixels; single shade
        (_patch(1024, 67, shadow_frac=0.0), _catalog(4, 68)),  # max pixels, no shadow, blend
    ]
