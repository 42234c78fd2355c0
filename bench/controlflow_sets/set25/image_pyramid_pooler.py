"""Multi-scale descriptor for satellite image tiles.

Non-square tiles are centre-cropped to a square; a stem conv runs once, then a
pyramid is built by repeated 2x average pooling while the map is at least
min_size pixels.  Each level contributes a pooled descriptor; building stops
early when a level is essentially flat (e.g. open water, cloud).  Descriptors
are averaged over the levels that were built.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim


class PyramidPooler(nn.Module):
    def __init__(self, in_ch=3, ch=8, out_dim=6):
        super().__init__()
        self.stem = nn.Conv2d(in_ch, ch, 3, padding=1)
        self.level_head = nn.Conv2d(ch, ch, 3, padding=1)
        self.proj = nn.Linear(ch, out_dim)
        self.min_size = 8
        self.flat_std = 0.01

    def forward(self, img):
        H, W = img.shape[-2], img.shape[-1]
        if H != W:
            s = min(H, W)
            top = (H - s) // 2
            left = (W - s) // 2
            img = img[:, :, top:top + s, left:left + s]
        x = self.stem(img)
        descriptors = []
        while x.shape[-1] >= self.min_size:
            f = torch.relu(self.level_head(x))
            descriptors.append(f.mean(dim=(2, 3)))
            if f.std(dim=(2, 3)).mean() < self.flat_std:
                break
            x = F.avg_pool2d(x, 2)
        if not descriptors:
            # tile too small for any level: global pooling of the stem features
            return self.proj(torch.relu(x).mean(dim=(2, 3))), torch.zeros((), dtype=torch.long)
        desc = torch.stack(descriptors, dim=0).mean(dim=0)
        return self.proj(desc), torch.tensor(len(descriptors))


def model():
    torch.manual_seed(0)
    return PyramidPooler().eval()


def _make(seed, b, h, w, flat=False):
    g = torch.Generator().manual_seed(seed)
    if flat:
        img = 0.3 + 0.001 * torch.randn(b, 3, h, w, generator=g)
    else:
        img = torch.rand(b, 3, h, w, generator=g)
    return (img,)


def example_inputs():
    return _make(0, 2, 32, 32)


def dynamic_shapes():
    return ({0: Dim("batch", min=2, max=8), 2: Dim("height", min=4, max=128), 3: Dim("width", min=4, max=128)},)


def verify_inputs():
    return [
        _make(1, 2, 32, 32),              # 3 levels: 32, 16, 8
        _make(2, 3, 40, 24),              # tall tile: crop to 24 -> levels 24, 12
        _make(3, 2, 6, 6),                # too small: no level
        _make(4, 2, 64, 64, flat=True),   # flat tile: stops after the first level
        _make(5, 2, 12, 20),              # wide tile: crop to 12 -> one level
        _make(6, 4, 96, 96),              # 4 levels
    ]
