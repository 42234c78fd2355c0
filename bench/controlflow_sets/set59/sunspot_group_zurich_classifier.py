"""Solar physics: Zurich (modified McIntosh) class of a sunspot group.

Input is a cut-out of a continuum image (intensity relative to the quiet
Sun) and the co-aligned line-of-sight magnetogram.  Umbra and penumbra are
thresholded, polarity tells uni- from bipolar groups, and the longitudinal
extent separates the large bipolar classes:
    A unipolar, no penumbra     B bipolar, no penumbra
    C bipolar, penumbra on one end
    D / E / F bipolar, penumbra on both ends, extent <10 / <15 / >=15 deg
    H unipolar with penumbra
A small conv head also scores the group's magnetic complexity.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

CLASSES = "ABCDEFH"


class ZurichClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.umbra_max = 0.45
        self.penumbra_max = 0.85
        self.min_pixels = 4
        self.field_gauss = 100.0
        self.deg_per_px = 0.4
        self.max_width_px = 64
        self.texture = nn.Conv2d(2, 4, 3, padding=1)
        self.head = nn.Linear(4, 1)

    def complexity(self, intensity, field):
        x = torch.stack([intensity, field / 1000.0]).unsqueeze(0)
        feat = torch.relu(self.texture(x)).mean((2, 3))
        return torch.sigmoid(self.head(feat)).reshape(())

    def has_penumbra_at(self, pen, c0, c1):
        return bool(pen[:, c0:c1].sum() >= self.min_pixels)

    def classify(self, has_pen, bipolar, lead_pen, follow_pen, extent):
        if not has_pen:
            return 1 if bipolar else 0
        if not bipolar:
            return 6
        if not (lead_pen and follow_pen):
            return 2
        if extent < 10.0:
            return 3
        elif extent < 15.0:
            return 4
        return 5

    def forward(self, intensity, field):
        deg = self.deg_per_px
        if intensity.shape[1] > self.max_width_px:
            # full-resolution HMI cut-out: bin 2x2 to the synoptic scale
            intensity = F.avg_pool2d(intensity[None, None], 2)[0, 0]
            field = F.avg_pool2d(field[None, None], 2)[0, 0]
            deg = deg * 2
        score = self.complexity(intensity, field)

        spot = intensity < self.penumbra_max
        if spot.sum() < self.min_pixels:
            return torch.tensor(-1), torch.zeros(()), score  # no group in the box

        umbra = intensity < self.umbra_max
        pen = spot & ~umbra
        has_pen = pen.sum() >= self.min_pixels
        pos = ((field > self.field_gauss) & spot).sum()
        neg = ((field < -self.field_gauss) & spot).sum()
        bipolar = bool(pos >= self.min_pixels) and bool(neg >= self.min_pixels)

        cols = torch.nonzero(spot.any(0)).flatten()
        c0, c1 = int(cols[0]), int(cols[-1]) + 1
        extent = (c1 - c0) * deg * torch.ones(())
        third = max((c1 - c0) // 3, 1)
        lead = self.has_penumbra_at(pen, c0, c0 + third)
        follow = self.has_penumbra_at(pen, c1 - third, c1)
        cls = self.classify(has_pen, bipolar, lead, follow, extent)
        return torch.tensor(cls), extent, score


def model():
    torch.manual_seed(5907)
    return ZurichClassifier().eval()


def make_patch(h, w, spots, seed):
    """spots: (row, col, umbra_radius, penumbra_radius, field_gauss)."""
    g = torch.Generator().manual_seed(seed)
    yy, xx = torch.meshgrid(torch.arange(h).float(), torch.arange(w).float(), indexing="ij")
    inten = 1.0 + 0.01 * torch.randn(h, w, generator=g)
    field = 20.0 * torch.randn(h, w, generator=g)
    for r, c, ru, rp, b in spots:
        d = ((yy - r) ** 2 + (xx - c) ** 2).sqrt()
        inten = torch.where(d < rp, torch.full_like(inten, 0.7), inten)
        inten = torch.where(d < ru, torch.full_like(inten, 0.3), inten)
        field = torch.where(d < rp, torch.full_like(field, b), field)
    return inten, field


def example_inputs():
    # bipolar pair 18 px apart, both with penumbra: extent ~ 10.8 deg -> E
    return make_patch(24, 40, [(12, 8, 2.0, 4.5, 1500.0), (12, 26, 2.0, 4.5, -1400.0)], 1)


def dynamic_shapes():
    h = torch.export.Dim("height", min=16, max=96)
    w = torch.export.Dim("width", min=16, max=96)
    return ({0: h, 1: w}, {0: h, 1: w})


def verify_inputs():
    ex = example_inputs()
    # 16 x 16 (min): a single pore without penumbra -> A
    pore = make_patch(16, 16, [(8, 8, 1.8, 1.8, 900.0)], 2)
    # two naked pores of opposite polarity -> B
    pores2 = make_patch(20, 30, [(10, 6, 1.6, 1.6, 800.0), (10, 22, 1.6, 1.6, -700.0)], 3)
    # leader with penumbra, follower naked -> C
    c_grp = make_patch(24, 36, [(12, 7, 2.0, 4.5, 1200.0), (12, 28, 1.6, 1.6, -900.0)], 4)
    # compact bipolar, both penumbral, extent < 10 deg -> D
    d_grp = make_patch(20, 24, [(10, 6, 1.5, 3.5, 1100.0), (10, 16, 1.5, 3.5, -1000.0)], 5)
    # 96 x 96 full-resolution cut-out (binned): large group -> F
    f_grp = make_patch(96, 96, [(48, 14, 4.0, 9.0, 2000.0), (44, 80, 4.0, 9.0, -1800.0)], 6)
    # big unipolar spot with penumbra -> H
    h_grp = make_patch(30, 30, [(15, 15, 3.0, 7.0, 2200.0)], 7)
    # quiet Sun, nothing in the box
    quiet = make_patch(18, 20, [], 8)
    return [ex, pore, pores2, c_grp, d_grp, f_grp, h_grp, quiet]
