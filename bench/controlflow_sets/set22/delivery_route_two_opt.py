"""Courier app route planner: nearest-neighbour tour from the depot, then best-improvement
2-opt moves (a bounded number per refresh)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class DeliveryRouteTwoOpt(nn.Module):
    def __init__(self, eps=1e-4, max_moves=2):
        super().__init__()
        self.eps = eps
        self.max_moves = max_moves
        self.road = nn.Linear(1, 1)  # learned detour factor of the road network

    def best_move(self, D, tour):
        n = tour.shape[0]
        I = torch.arange(n)[:, None]
        J = torch.arange(n)[None, :]
        a = tour[(I - 1) % n]
        b = tour[I]
        c = tour[J]
        d = tour[(J + 1) % n]
        gain = D[a, b] + D[c, d] - D[a, c] - D[b, d]
        valid = (I >= 1) & (J > I) & ~((I == 1) & (J == n - 1))
        gain = gain.masked_fill(~valid, -1e9)
        idx = gain.reshape(-1).argmax()
        return gain.reshape(-1)[idx], int(idx.item()) // n, int(idx.item()) % n

    def forward(self, stops):
        n = stops.shape[0]
        detour = 1.2 + 0.2 * torch.sigmoid(self.road(torch.ones(1)))
        D = torch.cdist(stops, stops) * detour
        visited = F.one_hot(torch.tensor(0), n).bool()
        cur = torch.tensor(0)
        tour = [cur]
        for _ in range(n - 1):
            cur = D[cur].masked_fill(visited, float("inf")).argmin()
            visited = visited | F.one_hot(cur, n).bool()
            tour.append(cur)
        tour = torch.stack(tour)
        moves = 0
        gain, i, j = self.best_move(D, tour)
        while gain > self.eps:
            tour = torch.cat([tour[:i], tour[i:j + 1].flip(0), tour[j + 1:]])
            moves += 1
            if moves >= self.max_moves:
                break
            gain, i, j = self.best_move(D, tour)
        length = D[tour, tour.roll(-1)].sum()
        return tour, length, torch.tensor(moves)


def model():
    torch.manual_seed(0)
    return DeliveryRouteTwoOpt().eval()


def _stops(seed, n):
    g = torch.Generator().manual_seed(seed)
    return (torch.rand(n, 2, generator=g) * 4.0,)


def example_inputs():
    return _stops(11, 8)


def dynamic_shapes():
    return ({0: torch.export.Dim("stops", min=2, max=64)},)


def verify_inputs():
    ang = torch.tensor([0.0, 0.9, 1.9, 3.0, 4.0, 5.1])
    ring = torch.stack([torch.cos(ang), torch.sin(ang)], -1) * 2.0   # stops around a ring road: NN is optimal
    return [(ring,), _stops(12, 5), _stops(14, 10)]
