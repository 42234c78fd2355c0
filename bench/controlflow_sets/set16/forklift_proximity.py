"""Forklift proximity guard: a 2D lidar scan (range per beam, metres) -> speed
scale and per-sector risk. Hard stop returns immediately; slow zone scales speed;
beams with no return (0) are treated as max range.
"""
import torch
from torch import nn

N_SECT = 4
MAX_RANGE = 30.0
REVERSE_ONLY = False


class SectorHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 1)

    def forward(self, r):
        f = torch.stack([r.amin(-1), r.mean(-1), r.std(-1)], -1)
        return torch.sigmoid(self.fc(f / MAX_RANGE))


class ProximityGuard(nn.Module):
    def __init__(self, stop=0.6, slow=2.5):
        super().__init__()
        self.heads = nn.ModuleList([SectorHead() for _ in range(N_SECT)])
        self.stop, self.slow = stop, slow

    def forward(self, ranges):  # (B, N) N divisible by 4
        r = torch.where(ranges > 0, ranges, torch.full_like(ranges, MAX_RANGE))
        nearest = r.amin()
        if nearest < self.stop:
            return torch.zeros(1), torch.ones(r.shape[0], N_SECT)
        sectors = r.reshape(r.shape[0], N_SECT, -1)
        risks = []
        for k, head in enumerate(self.heads):
            if REVERSE_ONLY and k < 2:  # static
                continue
            risks.append(head(sectors[:, k]))
        risk = torch.cat(risks, -1)
        if not (nearest > self.slow):
            speed = ((nearest - self.stop) / (self.slow - self.stop)).reshape(1)
        else:
            speed = torch.ones(1)
        return speed, risk


def model():
    torch.manual_seed(0)
    return ProximityGuard().eval()


def _scan(n, base, near, seed):
    g = torch.Generator().manual_seed(seed)
    x = base + torch.rand(2, n, generator=g) * 5.0
    x[0, n // 3] = near
    x[1, 5] = 0.0  # no return
    return x


def example_inputs():
    return (_scan(64, 6.0, 4.0, 0),)


def dynamic_shapes():
    return ({1: 4 * torch.export.Dim("q", min=2, max=256)},)


def verify_inputs():
    return [
        (_scan(32, 6.0, 0.3, 1),),   # hard stop
        (_scan(128, 6.0, 1.5, 2),),  # slow zone
        (_scan(16, 8.0, 7.0, 3),),   # clear
    ]
