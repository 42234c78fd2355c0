"""Survey pipeline stage: rough Hubble type from a galaxy cutout (CAS parameters).

Concentration C = 5 log10(r80 / r20) comes from growing an aperture around the
light centroid until it holds 20% and then 80% of the flux; asymmetry A compares
the cutout with itself rotated by 180 degrees; ellipticity comes from the second
moments. Irregulars/mergers are split off by asymmetry, ellipticals by
concentration (with the En subclass from the axis ratio), then lenticulars and
late spirals. A small CNN adds an embedding for the downstream classifier.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

IRREGULAR, ELLIPTICAL, LENTICULAR, SPIRAL = 0, 1, 2, 3


class CutoutEmbedder(nn.Module):
    def __init__(self, widths=(1, 8, 8, 8)):
        super().__init__()
        self.blocks = nn.ModuleList(
            nn.Conv2d(c_in, c_out, 3, padding=1, stride=1 if k == 0 else 2)
            for k, (c_in, c_out) in enumerate(zip(widths[:-1], widths[1:]))
        )

    def forward(self, img):
        h = torch.asinh(img[None, None] / 10.0)  # compress the dynamic range
        for block in self.blocks:
            h = F.relu(block(h))
        return h.mean(dim=(0, 2, 3))


class HubbleTyper(nn.Module):
    def __init__(self, max_side=64, a_irregular=0.35, c_early=3.75, c_lenticular=3.25):
        super().__init__()
        self.embedder = CutoutEmbedder()
        self.max_side = max_side
        self.a_irregular = a_irregular
        self.c_early = c_early
        self.c_lenticular = c_lenticular

    def _concentration(self, img, yy, xx, cy, cx):
        rr = torch.sqrt((yy - cy) ** 2 + (xx - cx) ** 2)
        total = img.sum()
        r = torch.tensor(0.5)
        while (img * (rr <= r)).sum() < 0.2 * total:
            r = r + 0.25
        r20 = r
        while (img * (rr <= r)).sum() < 0.8 * total:
            r = r + 0.25
        return 5.0 * torch.log10(r / r20)

    def forward(self, cutout):
        img = cutout
        if img.shape[0] > self.max_side or img.shape[1] > self.max_side:
            img = F.avg_pool2d(img[None, None], 2, ceil_mode=True)[0, 0]
        border = torch.cat([img[0], img[-1], img[:, 0], img[:, -1]])
        img = (img - border.median()).clamp(min=0.0)
        embedding = self.embedder(img)

        yy, xx = torch.meshgrid(
            torch.arange(img.shape[0], dtype=img.dtype), torch.arange(img.shape[1], dtype=img.dtype), indexing="ij"
        )
        total = img.sum()
        cy = (img * yy).sum() / total
        cx = (img * xx).sum() / total

        asym = (img - img.flip(0).flip(1)).abs().sum() / (2.0 * total)
        if asym > self.a_irregular:
            return torch.tensor(IRREGULAR), torch.tensor(-1), torch.zeros(()), asym, embedding

        conc = self._concentration(img, yy, xx, cy, cx)
        iyy = (img * (yy - cy) ** 2).sum() / total
        ixx = (img * (xx - cx) ** 2).sum() / total
        ixy = (img * (yy - cy) * (xx - cx)).sum() / total
        half_trace = 0.5 * (ixx + iyy)
        spread = torch.sqrt((0.5 * (ixx - iyy)) ** 2 + ixy ** 2)
        axis_ratio = torch.sqrt((half_trace - spread) / (half_trace + spread))

        subclass = torch.tensor(-1)
        if conc > self.c_early:
            kind = ELLIPTICAL
            subclass = torch.clamp((10.0 * (1.0 - axis_ratio)).floor(), max=7.0).long()  # E0..E7
        elif conc > self.c_lenticular:
            kind = LENTICULAR
        else:
            kind = SPIRAL
        return torch.tensor(kind), subclass, conc, asym, embedding


def model():
    torch.manual_seed(42)
    return HubbleTyper().eval()


def _galaxy(h, w, sersic_n, r_e, q=1.0, clumps=0, seed=0):
    g = torch.Generator().manual_seed(seed)
    yy, xx = torch.meshgrid(torch.arange(h, dtype=torch.float32), torch.arange(w, dtype=torch.float32), indexing="ij")
    cy, cx = (h - 1) / 2.0, (w - 1) / 2.0
    r = torch.sqrt((xx - cx) ** 2 + ((yy - cy) / q) ** 2)
    b = 2.0 * sersic_n - 0.327
    img = 100.0 * torch.exp(-b * ((r / r_e) ** (1.0 / sersic_n) - 1.0))
    for _ in range(clumps):
        py = float(torch.randint(2, h - 2, (), generator=g))
        px = float(torch.randint(2, w - 2, (), generator=g))
        img = img + 800.0 * torch.exp(-((yy - py) ** 2 + (xx - px) ** 2) / 4.0)
    return (img + 0.5 * torch.randn(h, w, generator=g) + 10.0,)


def example_inputs():
    return _galaxy(48, 48, 1.0, 6.0, q=0.6, seed=1)


def dynamic_shapes():
    h = torch.export.Dim("height", min=16, max=128)
    w = torch.export.Dim("width", min=16, max=128)
    return ({0: h, 1: w},)


def verify_inputs():
    return [
        example_inputs(),                              # exponential disk, C~2.5 -> spiral
        _galaxy(128, 128, 4.0, 14.0, q=0.55, seed=2),  # max size (downsampled, first `or` operand), n=4 -> E3
        _galaxy(16, 16, 2.5, 5.0, q=0.7, seed=3),      # min size, compact, C~4.0 -> elliptical E2
        _galaxy(40, 100, 2.5, 3.0, q=0.7, seed=3),     # wide cutout only (second `or` operand), C~3.5 -> lenticular
        _galaxy(64, 64, 1.0, 7.0, clumps=4, seed=5),   # bright off-centre clumps, A~0.42 -> irregular/merger
        _galaxy(100, 32, 1.0, 8.0, q=0.7, seed=3),     # tall cutout, disk -> spiral
    ]
