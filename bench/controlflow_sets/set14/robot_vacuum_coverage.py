"""Robot vacuum coverage planner on an occupancy grid: greedy boustrophedon-like moves to
uncovered free neighbours (learned dirt prior as a tie breaker), jump to the nearest
uncovered cell when boxed in, stop when everything is clean or the battery reaches the
return-to-dock reserve. Returns the path (data-dependent length) and the coverage map."""

import torch
from torch import nn

H = W = 8
RESERVE = 5.0


class CoveragePlanner(nn.Module):
    def __init__(self):
        super().__init__()
        self.dirt = nn.Conv2d(1, 1, 3, padding=1)
        self.register_buffer("dirs", torch.tensor([[-1, 0], [0, 1], [1, 0], [0, -1]]))
        self.register_buffer("dir_pref", torch.tensor([0.3, 0.2, 0.1, 0.0]))
        ii, jj = torch.meshgrid(torch.arange(H), torch.arange(W), indexing="ij")
        self.register_buffer("ii", ii)
        self.register_buffer("jj", jj)
        self.register_buffer("idx_bias", torch.arange(H * W).reshape(H, W).float() * 0.005)

    def forward(self, grid: torch.Tensor, start: torch.Tensor, battery: torch.Tensor):
        # grid: (H, W) 1 = obstacle; start: (2,) int64 cell; battery: (1,) energy units
        free = grid < 0.5
        prior = 0.05 * torch.sigmoid(self.dirt(grid[None, None]))[0, 0]
        covered = torch.zeros(H, W, dtype=torch.bool)
        pos = start.clone()
        covered[pos[0], pos[1]] = True
        path = [pos]
        energy = battery[0]
        while energy > RESERVE:
            nb = pos + self.dirs
            inside = (nb[:, 0] >= 0) & (nb[:, 0] < H) & (nb[:, 1] >= 0) & (nb[:, 1] < W)
            r = nb[:, 0].clamp(0, H - 1)
            c = nb[:, 1].clamp(0, W - 1)
            ok = inside & free[r, c] & ~covered[r, c]
            if ok.any():
                score = 2.0 * ok.float() + self.dir_pref + prior[r, c]
                k = torch.argmax(score)
                pos = torch.stack([r[k], c[k]])
                cost = torch.ones(())
            else:
                remaining = free & ~covered
                if not remaining.any():
                    break  # all clean
                dist = (self.ii - pos[0]).abs() + (self.jj - pos[1]).abs()
                d = torch.where(remaining, dist.float() + self.idx_bias, torch.full((H, W), 1e3))
                k = torch.argmax(-d.reshape(-1))
                pos = torch.stack([k // W, k % W])
                cost = dist.reshape(-1)[k].float() * 1.5
            energy = energy - cost
            covered[pos[0], pos[1]] = True
            path.append(pos)
        return torch.stack(path), covered.float(), energy.reshape(1)


def model() -> nn.Module:
    torch.manual_seed(0)
    return CoveragePlanner().eval()


def _room(obstacles, start, battery):
    g = torch.zeros(H, W)
    for r, c in obstacles:
        g[r, c] = 1.0
    return g, torch.tensor(start), torch.tensor([battery])


def example_inputs() -> tuple:
    return _room([(3, 3), (3, 4), (4, 3)], [0, 0], 40.5)


def verify_inputs() -> list:
    return [
        _room([(0, 1), (1, 0)], [0, 0], 200.5),           # boxed in at once, jumps, finishes
        _room([], [4, 4], 3.5),                            # battery below reserve: never moves
        _room([(r, 4) for r in range(7)], [7, 7], 150.5),  # wall with a gap, cleans everything
        _room([(2, 2)], [5, 2], 12.25),
    ]
