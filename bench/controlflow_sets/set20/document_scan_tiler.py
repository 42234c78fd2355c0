"""Document-scanner preprocessing: pads a page photo to the tile grid and enhances it.

Height/width are padded to a multiple of 8, wide scans are downsampled, faded
(low-contrast) pages get a contrast stretch, and the ink threshold depends on
the page brightness. Output: soft ink map [1, 1, H', W'].
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ScanTiler(nn.Module):
    def __init__(self, tile=8, max_width=64):
        super().__init__()
        self.tile, self.max_width = tile, max_width
        self.enc = nn.Conv2d(3, 4, 3, padding=1)
        self.ink = nn.Conv2d(4, 1, 1)
        self.noise_std = 0.05

    def forward(self, page):  # page: [1, 3, H, W] in [0, 1]
        H, W = page.shape[2], page.shape[3]
        if H % self.tile != 0 or W % self.tile != 0:
            page = F.pad(page, (0, (-W) % self.tile, 0, (-H) % self.tile), mode="replicate")
        if page.shape[3] > self.max_width:
            page = F.avg_pool2d(page, 2)
        gray = page.mean(1, keepdim=True)
        if gray.std() < 0.08:
            page = (page - gray.mean()) * 3.0 + 0.5
        if self.training:  # static
            page = page + self.noise_std * torch.randn_like(page)
        h = torch.relu(self.enc(page))
        thresh = 0.45 if gray.mean().item() > 0.5 else 0.3
        return torch.sigmoid(8.0 * (self.ink(h) + 0.5 - thresh))


def _page(H, W, contrast, bright, seed):
    g = torch.Generator().manual_seed(seed)
    yy, xx = torch.meshgrid(torch.arange(H), torch.arange(W), indexing="ij")
    lines = ((yy % 5) < 1).float() * ((xx % 7) < 5).float()
    base = bright - contrast * lines + 0.02 * torch.randn(H, W, generator=g)
    return base.clamp(0, 1).expand(1, 3, H, W).clone()


def model():
    torch.manual_seed(0)
    return ScanTiler().eval()


def example_inputs():
    return (_page(20, 30, 0.6, 0.8, 0),)


def dynamic_shapes():
    return ({2: torch.export.Dim("height", min=2, max=128), 3: torch.export.Dim("width", min=2, max=128)},)


def verify_inputs():
    return [
        (_page(16, 24, 0.6, 0.85, 1),),    # already tile-aligned
        (_page(40, 100, 0.6, 0.75, 2),),   # wide: downsampled
        (_page(12, 16, 0.1, 0.4, 3),),     # faded, dark page
        (_page(8, 13, 0.5, 0.3, 4),),      # dark page, width pad only
    ]
