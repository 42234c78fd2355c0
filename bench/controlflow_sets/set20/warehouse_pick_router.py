"""Warehouse order-picking router for a single picking cart.

Nearest-neighbour routing over the order's bin locations: the visited set is
rebuilt from the route list inside the loop that extends it, and routing stops
when the next item would overload the cart. A helper reports the first heavy
item on the route (returning from inside its loop). Route length may be 0.
"""
import torch
import torch.nn as nn


def first_heavy(route, weights, limit):
    for j in route:
        if weights[j] > limit:
            return j
    return torch.tensor(-1)


class PickRouter(nn.Module):
    def __init__(self, capacity=10.0, heavy=3.0):
        super().__init__()
        self.capacity, self.heavy = capacity, heavy
        self.aisle_cost = nn.Linear(2, 2)

    def forward(self, bins, weights, n_picks):  # bins: [N, 2]; weights: [N]; n_picks: [] int64
        pos = torch.zeros(2)
        load, dist = torch.zeros(()), torch.zeros(())
        scale = 1.0 + 0.1 * torch.sigmoid(self.aisle_cost.weight).diagonal()
        route = []
        for k in range(int(n_picks.item())):
            visited = torch.zeros(bins.shape[0], dtype=torch.bool)
            for j in route:
                visited = visited | (torch.arange(bins.shape[0]) == j)
            if visited.all():
                break
            d = ((bins - pos).abs() * scale).sum(1)
            nxt = torch.where(visited, torch.full_like(d, 1e4), d).argmin()
            if load + weights[nxt] > self.capacity:
                break
            route.append(nxt)
            load = load + weights[nxt]
            dist = dist + d[nxt]
            pos = bins[nxt]
        out = torch.stack(route) if len(route) > 0 else torch.zeros(0, dtype=torch.long)
        return out, dist, first_heavy(route, weights, self.heavy)


def _order(xy, w):
    return torch.tensor(xy, dtype=torch.float32), torch.tensor(w)


def model():
    torch.manual_seed(0)
    return PickRouter().eval()


def example_inputs():
    b, w = _order([[1, 2], [4, 1.5], [2.5, 7], [8, 3], [6.2, 6]], [1.0, 2.0, 3.5, 1.5, 0.5])
    return (b, w, torch.tensor(4))


def dynamic_shapes():
    N = torch.export.Dim("bins", min=2, max=32)
    return ({0: N}, {0: N}, None)


def verify_inputs():
    b, w = _order([[3, 3], [1, 9], [7.3, 2.1]], [1.0, 1.0, 1.0])
    b2, w2 = _order([[0.5, 0.7], [2, 2.6], [5, 1], [3.3, 8], [9, 9.5], [1.1, 4.2]], [2.0, 4.5, 2.5, 1.0, 6.0, 0.5])
    return [
        (b, w, torch.tensor(0)),      # empty order
        (b, w, torch.tensor(4)),      # more picks than bins: all picked, none heavy
        (b2, w2, torch.tensor(6)),    # cart fills up
    ]
