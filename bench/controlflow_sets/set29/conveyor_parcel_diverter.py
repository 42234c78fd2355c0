"""Sort-center conveyor diverter.

Each parcel on the belt is routed to a chute: unreadable labels go to the manual station,
heavy or bulky parcels to the oversize chute, small fragile parcels (fragility predicted by
a small MLP from the dimension/weight profile) to the soft-handling chute, everything else
to the standard chute.  A chute whose cumulative load would exceed its capacity overflows
to the spill chute.
"""
import torch
from torch import nn

MANUAL, STANDARD, FRAGILE, OVERSIZE, SPILL = 0, 1, 2, 3, 4


class ConveyorParcelDiverter(nn.Module):
    def __init__(self, read_conf=0.3, max_kg=30.0, max_volume=0.25, capacity=40.0):
        super().__init__()
        self.read_conf = read_conf
        self.max_kg = max_kg
        self.max_volume = max_volume
        self.capacity = capacity
        self.fragility = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))
        self.prior = nn.Linear(4, 1)

    def forward(self, parcels):
        # parcels: [N, 5] = weight kg, length m, width m, height m, label-read confidence
        weight = parcels[:, 0]
        volume = parcels[:, 1] * parcels[:, 2] * parcels[:, 3]
        profile = parcels[:, :4]
        fragile = torch.sigmoid(self.prior(profile)[:, 0] + 0.3 * self.fragility(profile)[:, 0])
        load = torch.zeros(5)
        chutes = []
        for i in range(parcels.shape[0]):
            if not parcels[i, 4] >= self.read_conf:
                chutes.append(torch.tensor(MANUAL))
                continue
            if weight[i] > self.max_kg or volume[i] > self.max_volume:
                chute = OVERSIZE
            elif fragile[i] > 0.5 and weight[i] < 5.0:
                chute = FRAGILE
            else:
                chute = STANDARD
            if load[chute] + weight[i] > self.capacity:
                chute = SPILL
            load[chute] = load[chute] + weight[i]
            chutes.append(torch.tensor(chute))
        return torch.stack(chutes), load


def model():
    torch.manual_seed(0)
    m = ConveyorParcelDiverter()
    with torch.no_grad():
        # fragility prior: light, flat parcels tend to be fragile
        m.prior.weight.copy_(torch.tensor([[-0.1, 0.0, 0.0, -8.0]]))
        m.prior.bias.fill_(2.0)
    return m.eval()


def _make(n, seed, heavy=0.0, unread=0.0, bulky=0.0):
    g = torch.Generator().manual_seed(seed)
    w = 0.5 + 9.0 * torch.rand(n, generator=g)
    dims = 0.1 + 0.4 * torch.rand(n, 3, generator=g)
    bulky_mask = torch.rand(n, 1, generator=g) < bulky
    dims = torch.where(bulky_mask, dims + 0.6, dims)
    conf = 0.5 + 0.5 * torch.rand(n, generator=g)
    heavy_mask = torch.rand(n, generator=g) < heavy
    w = torch.where(heavy_mask, 32.0 + 10.0 * torch.rand(n, generator=g), w)
    unread_mask = torch.rand(n, generator=g) < unread
    conf = torch.where(unread_mask, 0.05 + 0.2 * torch.rand(n, generator=g), conf)
    return (torch.cat([w[:, None], dims, conf[:, None]], dim=1),)


def example_inputs():
    return _make(12, 0, heavy=0.1, unread=0.1)


def dynamic_shapes():
    return ({0: torch.export.Dim("parcels", min=2, max=64)},)


def verify_inputs():
    return [
        _make(6, 1),
        _make(10, 2, heavy=0.3, unread=0.2, bulky=0.3),
        _make(24, 3, heavy=0.1, unread=0.1),   # standard chute fills up -> spill
        _make(3, 4, unread=1.0),               # nothing readable
        _make(8, 5, bulky=0.5),                # bulky but light parcels
        example_inputs(),
    ]
