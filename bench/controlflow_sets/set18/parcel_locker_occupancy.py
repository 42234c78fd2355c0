"""Parcel locker bank: per-locker occupancy from door/weight/IR features, plus a bank-level status."""
import torch
from torch import nn

FEAT = 6


class LockerOccupancy(nn.Module):
    def __init__(self, use_norm=True):
        super().__init__()
        self.use_norm = use_norm
        self.norm = nn.LayerNorm(FEAT)
        self.blocks = nn.ModuleList([nn.Linear(FEAT, 16), nn.Linear(16, 16)])
        self.head = nn.Linear(16, 1)

    def forward(self, x):
        # x: (batch, lockers, FEAT)
        h = x
        if self.use_norm:  # static
            h = self.norm(h)
        for blk in self.blocks:
            h = torch.relu(blk(h))
        occ = torch.sigmoid(self.head(h).squeeze(-1) + 4.0 * x[..., 0])
        rate = occ.mean()
        if rate.item() > 0.85:
            # nearly full: flag every bank, and scale to push reroute
            status = torch.full_like(rate, 2.0)
            occ = occ * 1.0
        elif rate.item() < 0.15:
            status = torch.zeros_like(rate)
            occ = occ * 0.5
        else:
            status = torch.ones_like(rate)
        if self.training:  # static
            occ = occ.clamp(0.0, 1.0)
        return occ, status


def model():
    torch.manual_seed(0)
    return LockerOccupancy().eval()


def example_inputs():
    torch.manual_seed(1)
    return (torch.randn(2, 24, FEAT) * 0.1,)


def dynamic_shapes():
    return ({1: torch.export.Dim("lockers", min=2, max=256)},)


def verify_inputs():
    full = torch.zeros(2, 40, FEAT)
    full[..., 0] = 3.0
    empty = torch.zeros(2, 10, FEAT)
    empty[..., 0] = -3.0
    return [(full,), (empty,), (torch.randn(2, 7, FEAT) * 0.1,)]
