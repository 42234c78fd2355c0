"""Warehouse pick-path planner on the picker's handheld: pick locations (N, 2)
in metres -> visiting order. Greedy nearest-neighbour from the depot with an
aisle-crossing penalty, then 2-opt improvement passes until no improving swap
(capped). Returns the order (N,) int64 and the tour length.
"""
import torch
from torch import nn

MAX_PASSES = 4
AISLE_W = 3.0


def dist_matrix(p):
    d = (p.unsqueeze(0) - p.unsqueeze(1)).norm(dim=-1)
    # crossing to another aisle costs a detour to the cross aisle
    aisle = torch.div(p[:, 0], AISLE_W, rounding_mode="floor")
    cross = (aisle.unsqueeze(0) != aisle.unsqueeze(1)).float()
    return d + cross * 2.0


def tour_length(d, order, depot_d):
    legs = d[order[:-1], order[1:]].sum()
    return legs + depot_d[order[0]] + depot_d[order[-1]]


class PickPlanner(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("depot", torch.zeros(2))

    def forward(self, picks):  # (N, 2)
        n = picks.shape[0]
        d = dist_matrix(picks)
        depot_d = (picks - self.depot).norm(dim=-1)
        visited = torch.zeros(n, dtype=torch.bool)
        cur_d = depot_d
        order = []
        for _ in range(n):
            nxt = torch.where(visited, torch.full_like(cur_d, 1e4), cur_d).neg().argmax()
            order.append(nxt)
            visited = visited | (torch.arange(n) == nxt)
            cur_d = d[nxt]
        order = torch.stack(order)
        best = tour_length(d, order, depot_d)
        passes = 0
        improved = torch.ones((), dtype=torch.bool)
        while improved and passes < MAX_PASSES:
            improved = torch.zeros((), dtype=torch.bool)
            for i in range(n - 2):
                for j in range(i + 2, n):
                    cand = torch.cat([order[: i + 1], order[i + 1: j + 1].flip(0), order[j + 1:]])
                    length = tour_length(d, cand, depot_d)
                    if length < best - 1e-3:
                        order, best = cand, length
                        improved = torch.ones((), dtype=torch.bool)
            passes += 1
        return order, best.reshape(1)


def model():
    torch.manual_seed(0)
    return PickPlanner().eval()


def _picks(n, seed, spread=20.0):
    g = torch.Generator().manual_seed(seed)
    return (torch.rand(n, 2, generator=g) * spread + 0.5,)


def example_inputs():
    return _picks(7, 0)


def dynamic_shapes():
    return ({0: torch.export.Dim("picks", min=2, max=32)},)


def verify_inputs():
    return [
        _picks(2, 1),            # inner 2-opt loops run zero times
        _picks(10, 2),
        _picks(4, 3, spread=2.0),  # single aisle, tiny
        (torch.tensor([[1.0, 1.0], [1.0, 9.0], [2.0, 2.0], [2.0, 8.0], [1.5, 5.0]]),),  # zig-zag
    ]
