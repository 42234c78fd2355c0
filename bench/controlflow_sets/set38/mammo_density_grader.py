"""Screening mammography: BI-RADS breast density category (A-D) from a single view.

Kind T. Constructs: 1 2 3 8 9
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ConvBlock(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, padding=1)
        self.conv2 = nn.Conv2d(cout, cout, 3, padding=1)
        self.residual = cin == cout

    def forward(self, x):
        y = self.conv2(F.relu(self.conv1(x)))
        if self.residual:
            y = y + x
        return F.max_pool2d(F.relu(y), 2)


class DensityGrader(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(1, 8, 5, stride=2, padding=2)
        self.blocks = nn.ModuleList([ConvBlock(8, 16), ConvBlock(16, 16)])
        self.head = nn.Linear(16 + 2, 4)
        self.background = 0.1   # normalised intensity below this is air
        self.fibro = 0.6        # dense (fibroglandular) tissue threshold

    def forward(self, img):
        # detectors export some views landscape; the network was trained on portrait
        if img.shape[-1] > img.shape[-2]:
            img = img.transpose(-1, -2)
        if img.shape[-2] > 192:
            img = F.avg_pool2d(img, 2)

        breast = (img > self.background).float()
        coverage = breast.mean()
        if coverage < 0.05:
            # blank / failed exposure: reject instead of grading
            return torch.full((4,), -1.0), coverage.reshape(1)

        dense = ((img > self.fibro) & breast.bool()).float().sum() / breast.sum()
        x = F.relu(self.stem(img * breast))
        for blk in self.blocks:
            x = blk(x)
        feats = torch.cat([x.mean(dim=(2, 3)).flatten(), dense.reshape(1), coverage.reshape(1)])
        logits = self.head(feats)

        if dense > 0.5:
            # extremely dense: category D is mandatory for supplemental screening
            logits = logits + torch.tensor([0.0, 0.0, 0.0, 4.0])
        elif dense < 0.1 and coverage > 0.3:
            logits = logits + torch.tensor([4.0, 0.0, 0.0, 0.0])
        return logits.softmax(-1), dense.reshape(1)


def model():
    torch.manual_seed(1)
    return DensityGrader().eval()


def _make_view(h, w, tissue_frac, dense_frac, seed):
    """Piecewise-constant phantom: air 0.0, fatty tissue 0.3, dense tissue 0.8, with small noise."""
    g = torch.Generator().manual_seed(seed)
    img = torch.zeros(1, 1, h, w)
    tw = int(w * tissue_frac)
    img[..., :, :tw] = 0.3
    dh = int(h * dense_frac)
    img[..., :dh, :tw] = 0.8
    noise = (torch.rand(1, 1, h, w, generator=g) - 0.5) * 0.04
    return (img + noise).clamp(min=0.0)


def example_inputs():
    return (_make_view(128, 96, 0.7, 0.3, 0),)


def dynamic_shapes():
    return ({2: torch.export.Dim("height", min=64, max=320), 3: torch.export.Dim("width", min=64, max=320)},)


def verify_inputs():
    return [
        example_inputs(),                           # portrait, small, medium density: no override
        (_make_view(96, 256, 0.8, 0.7, 1),),        # landscape -> transposed, 256 rows -> downsampled, dense>0.5
        (_make_view(64, 64, 0.02, 0.0, 2),),        # almost no tissue: early return (rejected)
        (_make_view(200, 160, 0.6, 0.05, 3),),      # portrait 200 rows -> downsampled, fatty (dense<0.1, coverage>0.3)
        (_make_view(80, 80, 0.2, 0.05, 4),),        # fatty but small coverage (0.05<cov<0.3): elif false via `and`
    ]
