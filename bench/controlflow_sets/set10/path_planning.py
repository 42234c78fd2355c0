"""Grid navigation for a warehouse robot: wavefront (Bellman-Ford style) cost-to-go
over a cost map, iterated until it stops changing, then greedy descent from the
start to the goal. Cells with cost >= 100 are obstacles."""
import torch
from torch import nn
import torch.nn.functional as F

BIG = 1.0e4


class GridPlanner(nn.Module):
    def __init__(self):
        super().__init__()
        # learned terrain adjustment of the raw cost map (e.g. floor-type embedding)
        self.adjust = nn.Conv2d(1, 1, 3, padding=1)
        self.max_steps = 64

    def neighbours_min(self, d):
        p = F.pad(d.reshape(1, 1, *d.shape), (1, 1, 1, 1), value=BIG)[0, 0]
        return torch.minimum(torch.minimum(p[:-2, 1:-1], p[2:, 1:-1]),
                             torch.minimum(p[1:-1, :-2], p[1:-1, 2:]))

    def forward(self, cost, start, goal):
        # cost: (H, W); start, goal: (2,) int64
        H, W = cost.shape
        blocked = cost >= 100.0
        c = cost + 0.1 * torch.sigmoid(self.adjust(cost.reshape(1, 1, H, W)))[0, 0]
        dist = torch.full((H, W), BIG)
        dist[goal[0], goal[1]] = 0.0
        changed = torch.tensor(True)
        it = 0
        while changed and it < H * W:
            relax = torch.where(blocked, torch.full_like(dist, BIG), self.neighbours_min(dist) + c)
            new = torch.minimum(dist, relax)
            changed = (new < dist).any()
            dist = new
            it += 1
        if dist[start[0], start[1]] > 0.5 * BIG:
            # unreachable goal: stay put
            return start.reshape(1, 2), torch.tensor(-1.0)
        pos = start.clone()
        path = [pos]
        offs = torch.tensor([[-1, 0], [1, 0], [0, -1], [0, 1]])
        for step in range(self.max_steps):
            if bool((pos == goal).all()):
                break
            nb = pos.unsqueeze(0) + offs
            inside = (nb[:, 0] >= 0) & (nb[:, 0] < H) & (nb[:, 1] >= 0) & (nb[:, 1] < W)
            nbc = nb.clamp(min=0)
            nbc = torch.stack([nbc[:, 0].clamp(max=H - 1), nbc[:, 1].clamp(max=W - 1)], dim=1)
            d = torch.where(inside, dist[nbc[:, 0], nbc[:, 1]], torch.full((4,), BIG))
            pos = nbc[torch.argmax(-d)]
            path.append(pos)
        return torch.stack(path), dist[start[0], start[1]]


def model():
    torch.manual_seed(0)
    return GridPlanner().eval()


def _grid(seed, walls=()):
    g = torch.Generator().manual_seed(seed)
    c = 1.0 + 3.0 * torch.rand(10, 10, generator=g)
    for (r0, r1, c0, c1) in walls:
        c[r0:r1, c0:c1] = 500.0
    return c


def example_inputs():
    return (_grid(1, [(2, 8, 4, 5)]), torch.tensor([0, 0]), torch.tensor([9, 9]))


def dynamic_shapes():
    return ({0: torch.export.Dim("H", min=4, max=64), 1: torch.export.Dim("W", min=4, max=64)}, None, None)


def verify_inputs():
    return [
        (_grid(2), torch.tensor([3, 3]), torch.tensor([3, 3])),                      # already there
        (_grid(3, [(0, 10, 5, 6)]), torch.tensor([0, 0]), torch.tensor([7, 8])),     # wall splits map
        (_grid(4, [(6, 9, 6, 7)]), torch.tensor([1, 2]), torch.tensor([8, 8])),
    ]
