"""Greedy Wi-Fi channel planning for an office floor.

Two access points interfere when they are closer than the mean of their coverage radii
(radius grows with transmit power).  APs are processed in deployment order; each takes the
lowest non-overlapping channel not used by an already-planned interfering neighbour.  When
all channels are taken, the AP gets the channel with the least neighbour power on it.
"""
import torch
from torch import nn


class WifiChannelAssigner(nn.Module):
    def __init__(self, num_channels=3, metres_per_dbm=0.5):
        super().__init__()
        self.num_channels = num_channels
        self.metres_per_dbm = metres_per_dbm

    def forward(self, positions, tx_dbm):
        # positions: [N, 2] metres, tx_dbm: [N] transmit power
        n = positions.shape[0]
        radius = self.metres_per_dbm * tx_dbm
        dist = torch.cdist(positions, positions)
        reach = 0.5 * (radius[:, None] + radius[None, :])
        interferes = (dist < reach) & ~torch.eye(n, dtype=torch.bool)
        channels = torch.full((n,), -1, dtype=torch.int64)
        for v in range(n):
            nbr = interferes[v] & (channels >= 0)
            if not nbr.any():
                channels[v] = 0
                continue
            used = torch.zeros(self.num_channels, dtype=torch.bool)
            used[channels[nbr]] = True
            c = 0
            while c < self.num_channels and used[c]:
                c += 1
            if c == self.num_channels:
                load = torch.zeros(self.num_channels).index_add(0, channels[nbr], tx_dbm[nbr])
                c = int(load.argmin())
            channels[v] = c
        conflicts = (interferes & (channels[:, None] == channels[None, :])).sum() // 2
        return channels, conflicts


def model():
    torch.manual_seed(0)
    return WifiChannelAssigner().eval()


def _make(n, seed, spread=20.0):
    g = torch.Generator().manual_seed(seed)
    pos = torch.rand(n, 2, generator=g) * spread
    tx = 14.0 + 6.0 * torch.rand(n, generator=g)
    return pos, tx


def example_inputs():
    return _make(10, 0)


def dynamic_shapes():
    n = torch.export.Dim("aps", min=2, max=48)
    return ({0: n}, {0: n})


def verify_inputs():
    return [
        _make(3, 1, spread=80.0),  # far apart: no neighbours
        _make(8, 2),
        _make(12, 3, spread=12.0),  # dense: channels run out
        _make(6, 4, spread=30.0),
        example_inputs(),
    ]
