"""Chute assignment in a parcel sorting centre (edge box next to the induction belt).

Inputs: parcel features (N, 8) [dest region one-hot(4), weight kg, length m, priority,
fragile], N dynamic, and remaining chute capacities (6,). A scorer ranks chutes per parcel;
parcels are assigned greedily in order, skipping full chutes; a parcel that fits no chute
goes to the reject lane (-1). Also returns the per-chute load.
"""

import torch
from torch import nn

N_CHUTES = 6


class ChuteScorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, N_CHUTES))
        # chutes 0-3 serve regions 0-3, chute 4 is oversize, chute 5 is overflow
        prior = torch.zeros(8, N_CHUTES)
        prior[:4, :4] = 4.0 * torch.eye(4)
        prior[5, 4] = 6.0
        self.register_buffer("prior", prior)

    def forward(self, parcels: torch.Tensor) -> torch.Tensor:
        ranks = torch.arange(N_CHUTES, dtype=torch.float32) * 0.3
        return parcels @ self.prior + 0.1 * self.mlp(parcels) - ranks + torch.tensor(
            [0.0, 0.0, 0.0, 0.0, 0.0, 1.0])


class Sorter(nn.Module):
    def __init__(self):
        super().__init__()
        self.scorer = ChuteScorer()

    def forward(self, parcels: torch.Tensor, capacity: torch.Tensor):
        scores = self.scorer(parcels)
        order = torch.argsort(scores, dim=1, descending=True)
        load = torch.zeros(N_CHUTES)
        assign = []
        for i in range(parcels.shape[0]):
            w = parcels[i, 4]
            chosen = torch.tensor(-1)
            for k in range(N_CHUTES):
                c = order[i, k]
                if load[c] + w > capacity[c]:
                    continue
                if parcels[i, 7] > 0.5 and c == 5:
                    # fragile parcels never go down the overflow chute
                    continue
                chosen = c
                load = load + w * nn.functional.one_hot(c, N_CHUTES).float()
                break
            assign.append(chosen)
        return torch.stack(assign), load


def model() -> nn.Module:
    torch.manual_seed(0)
    return Sorter().eval()


def _parcels(n, seed, heavy=False, fragile=False):
    g = torch.Generator().manual_seed(seed)
    region = torch.randint(0, 4, (n,), generator=g)
    p = torch.zeros(n, 8)
    p[torch.arange(n), region] = 1.0
    p[:, 4] = 1.0 + 4.0 * torch.rand(n, generator=g) + (20.0 if heavy else 0.0)
    p[:, 5] = 0.3 + 0.5 * torch.rand(n, generator=g)
    p[:, 6] = torch.rand(n, generator=g)
    p[:, 7] = 1.0 if fragile else 0.0
    return p


def example_inputs() -> tuple:
    return (_parcels(10, 1), torch.full((N_CHUTES,), 60.0))


def dynamic_shapes():
    return ({0: torch.export.Dim("parcels", min=2, max=256)}, None)


def verify_inputs() -> list:
    return [
        (_parcels(12, 2), torch.tensor([6.0, 6.0, 6.0, 6.0, 6.0, 100.0])),       # spill to other chutes
        (_parcels(7, 3, heavy=True, fragile=True), torch.full((N_CHUTES,), 30.5)),  # rejects
        (_parcels(3, 4, fragile=True), torch.tensor([0.5, 0.5, 0.5, 0.5, 0.5, 50.0])),
    ]
