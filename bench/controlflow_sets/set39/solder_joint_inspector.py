"""Automated optical inspection (AOI) of solder joints on a PCB: a small CNN classifies each
joint crop (good / insufficient / bridged / tombstoned) after lighting normalisation and
resizing of oversized crops; a physical rule flags bridging when too many saturated pixels
are present, and blank crops (missing board / lens cap) are sent to manual review.

Kind T. Constructs: 1 (if on tensor mean / std / any()), 2 (early return of the
manual-review answer, variable reassigned in one branch), 3 (or over the two spatial
sizes; and in the bridging rule), 8 (branch on the dynamic crop height / width),
9 (loop over nn.ModuleList, config flags, self.training).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

CLASSES = ("good", "insufficient", "bridged", "tombstoned")


class ConvBlock(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, 3, padding=1)
        self.bn = nn.BatchNorm2d(cout)

    def forward(self, x):
        return F.max_pool2d(F.relu(self.bn(self.conv(x))), 2)


class SolderJointAOI(nn.Module):
    def __init__(self, max_side=64, auto_gain=True, bridge_rule=True):
        super().__init__()
        self.max_side = max_side
        self.auto_gain = auto_gain
        self.bridge_rule = bridge_rule
        self.blocks = nn.ModuleList([ConvBlock(3, 16), ConvBlock(16, 32), ConvBlock(32, 32)])
        self.head = nn.Linear(32, len(CLASSES))

    def forward(self, crops):
        # crops: (B, 3, H, W) RGB in [0, 1]
        b = crops.shape[0]
        if crops.std() < 0.02:
            # nothing to see: every joint goes to manual review
            return torch.full((b, len(CLASSES)), 1.0 / len(CLASSES)), torch.ones(b)
        x = crops
        if x.shape[-2] > self.max_side or x.shape[-1] > self.max_side:
            x = F.interpolate(x, size=(self.max_side, self.max_side), mode="bilinear", align_corners=False)
        if self.auto_gain and x.mean() < 0.2:  # config flag + dim-lighting check
            x = (x * (0.45 / x.mean())).clamp(0.0, 1.0)
        for blk in self.blocks:
            x = blk(x)
        logits = self.head(x.mean(dim=(2, 3)))
        if not self.training:  # static: eval-mode calibration
            logits = logits / 1.5
        probs = logits.softmax(-1)
        review = torch.zeros(b)
        saturated = (crops > 0.95).float().mean(dim=(1, 2, 3))
        if self.bridge_rule and (saturated > 0.3).any():  # config flag + data rule
            bridged = torch.zeros_like(probs)
            bridged[:, CLASSES.index("bridged")] = 1.0
            probs = torch.where((saturated > 0.3)[:, None], bridged, probs)
            review = (saturated > 0.3).float()
        return probs, review


def model():
    torch.manual_seed(3907)
    m = SolderJointAOI()
    # pretend-calibrated batch-norm statistics
    for blk in m.blocks:
        blk.bn.running_mean.uniform_(-0.1, 0.1)
        blk.bn.running_var.uniform_(0.5, 1.5)
    return m.eval()


def _make_crops(seed, b, h, w, brightness=0.5, contrast=0.2):
    g = torch.Generator().manual_seed(seed)
    return (brightness + contrast * (torch.rand(b, 3, h, w, generator=g) - 0.5) * 2,)


def example_inputs():
    # 4 normally lit 48x48 crops: no resize, no gain, no bridging
    return _make_crops(1, 4, 48, 48)


def dynamic_shapes():
    b = torch.export.Dim("joints", min=2, max=32)
    h = torch.export.Dim("height", min=16, max=128)
    w = torch.export.Dim("width", min=16, max=128)
    return ({0: b, 2: h, 3: w},)


def verify_inputs():
    ex = example_inputs()   # the example: path described in example_inputs()
    # blank crops (std 0): early return, everything to manual review
    blank = (torch.full((3, 3, 40, 40), 0.3),)
    # tall crops 96x40 (height > 64, width not): resize; dim lighting (mean 0.1 < 0.2): auto gain
    dim = _make_crops(2, 5, 96, 40, brightness=0.1, contrast=0.08)
    # wide crops 32x100 (only the width test is true): resize; one crop glaring -> bridging rule
    (glare,) = _make_crops(3, 3, 32, 100)
    glare[1, :, 4:28, 10:90] = 1.0
    glare = (glare,)
    # minimum size 16x16, two crops
    small = _make_crops(4, 2, 16, 16, brightness=0.6)
    return [ex, blank, dim, glare, small]
