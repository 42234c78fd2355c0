"""Smartwatch fall detection: free-fall then impact then lying still, scored by a small MLP."""
import torch
from torch import nn
from torch.export import Dim


class FallDetector(nn.Module):
    RATE = 50

    def __init__(self, free_thr=3.0, impact_thr=25.0, max_gap=25):
        super().__init__()
        self.free_thr = free_thr
        self.impact_thr = impact_thr
        self.max_gap = max_gap
        self.mlp = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))

    def forward(self, accel):
        T = accel.shape[0]
        none = (torch.zeros(1), torch.full((1,), -1.0))
        if T < self.RATE:
            return none   # need at least one second of data
        mag = accel.norm(dim=1)
        free = mag < self.free_thr
        impact = mag > self.impact_thr
        if not free.any() or not impact.any():
            return none
        t_free = free.nonzero()[0, 0]
        t_imp = impact.nonzero()[-1, 0]
        gap = t_imp - t_free
        if gap < 0 or gap > self.max_gap:
            return none
        post = mag[t_imp + 5:]
        still = post.std() < 1.0
        feat = torch.stack([gap.float() / 25.0, mag.max() / 30.0, post.std(), post.mean() / 9.81]).view(1, 4)
        p = torch.sigmoid(self.mlp(feat)).view(1)
        p = 0.5 + 0.5 * p if still else 0.5 * p
        return p, t_imp.float().view(1) / self.RATE


def model():
    torch.manual_seed(0)
    return FallDetector().eval()


def _signal(T, events, seed):
    g = torch.Generator().manual_seed(seed)
    mag = 9.81 + 2.0 * torch.sin(torch.arange(T, dtype=torch.float32) * 0.7)   # walking, 7.8..11.8
    for start, stop, val in events:
        mag[start:stop] = val
    dirs = torch.randn(T, 3, generator=g)
    dirs = dirs / dirs.norm(dim=1, keepdim=True)
    return dirs * mag.unsqueeze(1)


def example_inputs():
    # free fall at 40..55, impact at 60, then lying still
    return (_signal(150, [(40, 55, 1.2), (60, 62, 31.0), (67, 150, 9.8)], 1),)


def verify_inputs():
    return [
        (_signal(30, [], 2),),                                                  # too short
        (_signal(120, [], 3),),                                                 # walking only
        (_signal(200, [(50, 60, 1.5), (150, 152, 28.0)], 4),),                  # impact long after drop
        (_signal(180, [(30, 32, 28.0), (150, 160, 1.5)], 6),),                  # bump first, drop later
        (_signal(100, [(20, 30, 0.8), (34, 36, 33.0)], 5),),                    # fall, keeps moving
    ]


def dynamic_shapes():
    return ({0: Dim("samples", min=16, max=512)},)
