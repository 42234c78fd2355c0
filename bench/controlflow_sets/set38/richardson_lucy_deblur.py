"""Fluorescence microscopy: Richardson-Lucy deconvolution of a widefield image with a known
Gaussian PSF, iterated until the estimate stops changing, plus a small learned cleanup.

Kind T. Constructs: 1 2 3 4 8 9
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class RichardsonLucy(nn.Module):
    def __init__(self, sigma=1.2, ksize=7, max_iters=12, tol_pct=0.5, dark_level=2.0, preserve_flux=True):
        super().__init__()
        ax = torch.arange(ksize, dtype=torch.float32) - ksize // 2
        g = torch.exp(-ax ** 2 / (2 * sigma ** 2))
        psf = torch.outer(g, g)
        self.register_buffer("psf", (psf / psf.sum())[None, None])
        self.ksize = ksize
        self.max_iters = max_iters
        self.tol_pct = tol_pct              # stop when the estimate changes by less than this (% of flux)
        self.dark_level = dark_level        # mean counts of an empty (dark) field
        self.preserve_flux = preserve_flux
        self.cleanup = nn.Conv2d(1, 1, 3, padding=1)

    def blur(self, x):
        p = self.ksize // 2
        return F.conv2d(F.pad(x, (p, p, p, p), mode="replicate"), self.psf)

    def forward(self, img):
        img = img.clamp(min=0.0)
        if img.shape[-1] < self.ksize or img.shape[-2] < self.ksize:
            # crop smaller than the PSF support: nothing sensible to do
            return img, torch.zeros(())
        if img.mean() < self.dark_level:
            # dark frame: only read noise, deconvolution would amplify it
            return img, torch.zeros(())

        x = torch.ones_like(img) * img.mean()      # flat starting estimate
        change = torch.tensor(100.0)
        it = 0
        while change > self.tol_pct and it < self.max_iters:
            est = self.blur(x).clamp(min=1e-3)
            x_new = x * self.blur(img / est)
            change = 100.0 * (x_new - x).abs().sum() / x.abs().sum().clamp(min=1e-3)
            x = x_new
            it += 1
        if self.preserve_flux:  # static config flag
            x = x * (img.sum() / x.sum().clamp(min=1e-3))
        x = x * (1.0 + 0.05 * torch.tanh(self.cleanup(x / (x.mean() + 1.0))))
        return x, change


def model():
    torch.manual_seed(20)
    return RichardsonLucy().eval()


def _make_field(h, w, spots, background, seed):
    """Blurred bright spots (row, col, amplitude) on a flat background, with a little noise."""
    g = torch.Generator().manual_seed(seed)
    yy, xx = torch.meshgrid(torch.arange(h, dtype=torch.float32), torch.arange(w, dtype=torch.float32), indexing="ij")
    img = torch.full((h, w), background)
    for r, c, amp in spots:
        img = img + amp * torch.exp(-((yy - r) ** 2 + (xx - c) ** 2) / (2 * 1.6 ** 2))
    img = img + 0.5 * torch.rand(h, w, generator=g)
    return (img[None, None],)


def example_inputs():
    return _make_field(32, 40, [(10.3, 12.6, 200.0), (20.1, 28.4, 120.0), (16.5, 17.2, 80.0)], 10.0, 0)


def dynamic_shapes():
    return ({2: torch.export.Dim("h", min=4, max=128), 3: torch.export.Dim("w", min=4, max=128)},)


def verify_inputs():
    return [
        example_inputs(),                                       # sparse spots: still changing after 12 iterations, stops at max_iters
        _make_field(5, 20, [], 10.0, 1),                        # 5 rows < PSF size: first early return (or, lhs)
        _make_field(20, 6, [], 10.0, 2),                        # 6 cols < PSF size: first early return (or, rhs)
        _make_field(24, 24, [], 0.5, 3),                        # dark frame: second early return
        _make_field(16, 16, [], 30.0, 4),                       # flat bright field: converges after one iteration
        _make_field(40, 30, [(20.2, 15.3, 6.0)], 20.0, 5),      # faint spot on a bright background: converges after two iterations
    ]
