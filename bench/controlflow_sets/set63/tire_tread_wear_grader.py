"""Tire tread-depth grader for a drive-over inspection ramp.

Kind T.  Constructs: 1, 2, 3, 8, 9.
A small CNN looks at a laser-profile image of the tread (bright = deep groove)
and regresses groove depth in mm on top of a photometric prior.  Large scans
are downscaled first; the per-tire verdict (replace / warn / ok) is an if/elif
chain on the mean depth and the worst crop.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim

CROPS = Dim("crops", min=2, max=8)
H = Dim("height", min=32, max=256)
W = Dim("width", min=32, max=256)

LEGAL_MIN_MM = 1.6
WARN_MM = 3.0


class ConvBlock(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, 3, padding=1)
        self.bn = nn.BatchNorm2d(cout)

    def forward(self, x):
        return F.relu(self.bn(self.conv(x)))


class TreadGrader(nn.Module):
    def __init__(self, width=16, depth=3, use_groove_attention=True):
        super().__init__()
        self.stem = ConvBlock(1, width)
        self.blocks = nn.ModuleList([ConvBlock(width, width) for _ in range(depth)])
        self.use_groove_attention = use_groove_attention
        self.attn = nn.Conv2d(width, 1, 1)
        self.head = nn.Linear(width, 1)

    def forward(self, scan):
        if scan.shape[-1] > 128 or scan.shape[-2] > 128:
            scan = F.interpolate(scan, scale_factor=0.5, mode="bilinear", align_corners=False)

        x = self.stem(scan)
        for blk in self.blocks:
            x = F.max_pool2d(blk(x), 2) if x.shape[-1] >= 16 else blk(x)
        if self.use_groove_attention:
            w = torch.sigmoid(self.attn(x))
            x = x * w / (w.mean(dim=(2, 3), keepdim=True) + 1e-6)
        feat = x.mean(dim=(2, 3))

        prior = 10.0 * scan.mean(dim=(1, 2, 3))           # photometric depth prior, mm
        depth = (prior + 0.2 * torch.tanh(self.head(feat)).squeeze(-1)).clamp(min=0.0)

        mean_depth = depth.mean().item()
        if mean_depth < LEGAL_MIN_MM or (depth < 1.0).any():
            verdict = torch.tensor([1.0, 0.0, 0.0])       # replace
        elif mean_depth < WARN_MM:
            verdict = torch.tensor([0.0, 1.0, 0.0])       # warn
        else:
            verdict = torch.tensor([0.0, 0.0, 1.0])       # ok
        return depth, verdict


def model():
    torch.manual_seed(63002)
    return TreadGrader().eval()


def _scan(crops, h, w, levels, seed):
    # grooves: bright vertical stripes on a darker rubber background
    g = torch.Generator().manual_seed(seed)
    cols = torch.arange(w)
    stripes = ((cols // 6) % 3 == 0).float()
    out = []
    for c in range(crops):
        lvl = levels[c % len(levels)]
        img = lvl * (0.6 + 0.8 * stripes).expand(h, w) / (0.6 + 0.8 / 3)
        out.append(img + 0.01 * torch.randn(h, w, generator=g))
    return torch.stack(out).unsqueeze(1)


def example_inputs():
    return (_scan(4, 64, 96, [0.55], 1),)


def dynamic_shapes():
    return ({0: CROPS, 2: H, 3: W},)


def verify_inputs():
    return [
        example_inputs(),                          # small scan, mean ~5.5 mm: ok (else)
        (_scan(2, 200, 96, [0.25], 2),),           # tall scan -> downscale (2nd `or` operand); ~2.5 mm: warn
        (_scan(3, 48, 180, [0.12], 3),),           # wide scan -> downscale (1st operand); ~1.2 mm: replace (mean < 1.6)
        (_scan(4, 40, 40, [0.5, 0.5, 0.5, 0.05], 4),),  # mean ~4 mm but one crop ~0.5 mm: replace via any();
                                                   # 40 px wide -> last block runs without max-pool
    ]
