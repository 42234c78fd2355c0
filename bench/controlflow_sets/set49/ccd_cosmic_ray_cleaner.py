"""Astronomical CCD frame cleaning in the spirit of L.A.Cosmic: iteratively
flag sharp positive outliers against a local median (rejecting stars via a
fine-structure test) and replace them, until no new hits are found."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim


def median_filter(img, k):
    pad = k // 2
    x = F.pad(img[None, None], (pad, pad, pad, pad), mode="replicate")
    patches = F.unfold(x, k)  # [1, k*k, H*W]
    return patches.median(dim=1).values.reshape(img.shape)


class CosmicRayCleaner(nn.Module):
    def __init__(self, sigclip=5.0, objlim=4.0, gain=1.0, readnoise=5.0, max_iter=4):
        super().__init__()
        self.sigclip = sigclip
        self.objlim = objlim
        self.gain = gain
        self.readnoise = readnoise
        self.max_iter = max_iter

    def noise_model(self, med):
        return torch.sqrt(med.clamp(min=1.0) * self.gain + self.readnoise ** 2) / self.gain

    def find_hits(self, img):
        H, W = img.shape
        k = 3 if min(H, W) < 32 else 5
        med = median_filter(img, k)
        sig = (img - med) / self.noise_model(med)
        cand = sig > self.sigclip
        if not cand.any():
            return cand
        # fine structure: cosmic rays are sharper than the PSF of real stars
        med3 = median_filter(img, 3)
        fine = median_filter(med3, 7) if k == 5 else median_filter(med3, 5)
        fine_ratio = (med3 - fine) / self.noise_model(med)
        return cand & (sig > self.objlim * fine_ratio.clamp(min=0.01))

    def forward(self, img):
        # img: [H, W] bias-subtracted frame in ADU
        mask = torch.zeros_like(img, dtype=torch.bool)
        n_hits = []
        for it in range(self.max_iter):
            hits = self.find_hits(img)
            n = hits.sum()
            if n == 0:
                break
            img = torch.where(hits, median_filter(img, 5), img)
            mask = mask | hits
            n_hits.append(n.float())
        total = torch.stack(n_hits).sum() if n_hits else torch.zeros(())
        return img, mask.float(), total


def model():
    torch.manual_seed(4914)
    return CosmicRayCleaner().eval()


def _frame(H, W, seed, n_stars=0, n_cr=0, cr_cluster=False):
    g = torch.Generator().manual_seed(seed)
    sky = 200.0 + 15.0 * torch.randn(H, W, generator=g)
    yy, xx = torch.meshgrid(torch.arange(H).float(), torch.arange(W).float(), indexing="ij")
    for _ in range(n_stars):
        cy = float(torch.randint(4, H - 4, (1,), generator=g))
        cx = float(torch.randint(4, W - 4, (1,), generator=g))
        sky = sky + 3000.0 * torch.exp(-((yy - cy) ** 2 + (xx - cx) ** 2) / (2 * 2.0 ** 2))
    for _ in range(n_cr):
        y = int(torch.randint(2, H - 3, (1,), generator=g))
        x = int(torch.randint(2, W - 3, (1,), generator=g))
        sky[y, x] += 2500.0
        if cr_cluster:
            sky[y, x + 1] += 2000.0
            sky[y + 1, x] += 1800.0
    return (sky,)


def example_inputs():
    # small frame (3x3 median) with stars and isolated hits
    return _frame(24, 28, 141, n_stars=2, n_cr=5)


def dynamic_shapes():
    return ({0: Dim("rows", min=12, max=96), 1: Dim("cols", min=12, max=96)},)


def verify_inputs():
    return [
        example_inputs(),
        _frame(16, 16, 142),                           # empty sky: no candidates, loop stops at once
        _frame(40, 36, 143, n_stars=3),                # stars only: candidates rejected by fine structure
        _frame(64, 48, 144, n_stars=2, n_cr=6, cr_cluster=True),  # 5x5 median, clustered hits: several iterations
        _frame(96, 96, 145, n_stars=4, n_cr=10),       # max frame
    ]
