"""Weather-radar hail size estimator on a reflectivity (dBZ) patch.

Constructs: 1 (if/elif/else on .any() predicates), 2 (early return when no
echo), 8 (downsample when H or W is large), 9 (loop over nn.ModuleList).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class HailSizeEstimator(nn.Module):
    def __init__(self, ch=8, depth=3):
        super().__init__()
        self.stem = nn.Conv2d(1, ch, 3, padding=1)
        self.blocks = nn.ModuleList([nn.Conv2d(ch, ch, 3, padding=1) for _ in range(depth)])
        self.hail_head = nn.Linear(ch, 1)
        self.graupel_head = nn.Linear(ch, 1)

    def forward(self, dbz):
        # dbz: [1, 1, H, W]
        if dbz.shape[-1] > 64 or dbz.shape[-2] > 64:
            dbz = F.avg_pool2d(dbz, 2)
        if dbz.max() < 20.0:
            return torch.zeros(1), torch.zeros(1)
        h = torch.relu(self.stem(dbz / 60.0))
        for blk in self.blocks:
            h = torch.relu(blk(h)) + h
        feat = h.mean((2, 3)).squeeze(0)
        core = (dbz > 40.0).float().mean().reshape(1)
        if (dbz > 55.0).any():
            size_cm = 2.0 + F.softplus(self.hail_head(feat))
        elif (dbz > 45.0).any():
            size_cm = 0.5 * torch.sigmoid(self.graupel_head(feat))
        else:
            size_cm = torch.zeros(1)
        return size_cm, core


def model():
    torch.manual_seed(7)
    return HailSizeEstimator().eval()


def _patch(H, W, peak, seed):
    g = torch.Generator().manual_seed(seed)
    x = 10.0 + 3.0 * torch.rand(1, 1, H, W, generator=g)
    if peak > 0:
        x[..., H // 2 - 4:H // 2 + 4, W // 2 - 4:W // 2 + 4] = peak
    return x


def example_inputs():
    return (_patch(32, 48, 60.0, 0),)


def dynamic_shapes():
    return ({2: torch.export.Dim("H", min=8, max=128), 3: torch.export.Dim("W", min=8, max=128)},)


def verify_inputs():
    return [
        example_inputs(),               # no pooling, hail core -> hail head
        (_patch(32, 32, 0.0, 1),),      # no echo -> early return
        (_patch(96, 40, 50.0, 2),),     # pool (H large), graupel branch
        (_patch(40, 100, 30.0, 3),),    # pool (W large), rain only -> else
        (_patch(128, 128, 62.0, 4),),   # max size, hail
        (_patch(8, 8, 35.0, 5),),       # min size, rain only
    ]
