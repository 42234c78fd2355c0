"""Bomberman-style arena: resolve bomb fuses, blast rays and chain reactions.

Game server step used to pre-compute the outcome of the bombs currently on
the map (for the bot AI). Each tick every live fuse burns down; bombs at zero
explode, sending a ray of flame up/down/left/right for `power` cells. A ray
stops at the arena edge or a hard wall, destroys the first crate it reaches
and stops there, and sets off any other bomb it touches (chain reaction in
the same tick). A small CNN turns the final map + flame times into a danger
heat-map for the bot.

grid: 0 floor, 1 crate, 2 hard wall. bombs: (row, col, fuse ticks, power);
fuse -1 = already exploded. flames: tick (1-based) at which the cell burned.

Constructs: 1, 3, 4, 5, 6, 7, 9
"""
import torch
import torch.nn as nn
from torch.export import Dim

FLOOR, CRATE, WALL = 0, 1, 2


class BlastResolver(nn.Module):
    def __init__(self):
        super().__init__()
        self.dirs = [(-1, 0), (1, 0), (0, -1), (0, 1)]
        self.max_ticks = 16
        self.danger = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 1, 3, padding=1))

    def blast_ray(self, grid, bombs, fuse, flames, r, c, dr, dc, power, tick):
        H, W = grid.shape
        for k in range(1, int(power) + 1):
            rr, cc = r + dr * k, c + dc * k
            if rr < 0 or rr >= H or cc < 0 or cc >= W:
                break
            if grid[rr, cc] == WALL:
                break
            flames[rr, cc] = tick + 1
            if grid[rr, cc] == CRATE:
                grid[rr, cc] = FLOOR
                break
            hit = (bombs[:, 0] == rr) & (bombs[:, 1] == cc) & (fuse > 0)
            if hit.any():
                fuse[hit] = 0  # chain reaction: goes off in this same tick

    def forward(self, grid, bombs):
        grid = grid.clone()
        fuse = bombs[:, 2].clone()
        flames = torch.zeros_like(grid)
        tick = 0
        while (fuse >= 0).any() and tick < self.max_ticks:
            fuse = torch.where(fuse > 0, fuse - 1, fuse)
            pending = fuse == 0
            while pending.any():
                b = pending.int().argmax()
                fuse[b] = -1
                r, c = bombs[b, 0], bombs[b, 1]
                flames[r, c] = tick + 1
                for dr, dc in self.dirs:  # static
                    self.blast_ray(grid, bombs, fuse, flames, r, c, dr, dc, bombs[b, 3], tick)
                pending = fuse == 0
            tick += 1

        planes = torch.stack([grid == CRATE, grid == WALL, flames > 0]).float().unsqueeze(0)
        danger = torch.sigmoid(self.danger(planes))[0, 0]
        return grid, flames, danger


def model():
    torch.manual_seed(67)
    return BlastResolver().eval()


def _arena(H, W, crates, bombs, pillars=True):
    g = torch.zeros(H, W, dtype=torch.long)
    if pillars:
        g[1::2, 1::2] = WALL
    for r, c in crates:
        g[r, c] = CRATE
    return g, torch.tensor(bombs, dtype=torch.long)


def example_inputs():
    # 7x9 arena with pillars: bomb 0 (fuse 2) burns a crate and sets off bomb 1 (fuse 5) by chain reaction;
    # bomb 2 (fuse 3, power 3) is stopped by a pillar and runs off the top and right edges
    return _arena(7, 9, [(0, 6), (4, 2), (6, 0)],
                  [[2, 2, 2, 2], [2, 4, 5, 1], [1, 8, 3, 3]])


def dynamic_shapes():
    return ({0: Dim("rows", min=5, max=15), 1: Dim("cols", min=5, max=15)}, {0: Dim("bombs", min=2, max=8)})


def verify_inputs():
    return [
        example_inputs(),  # chain reaction (nested while runs twice in one tick), crate, wall, top/right edges
        _arena(5, 5, [(1, 0)], [[0, 0, -1, 2], [4, 4, -1, 2]]),  # all bombs already exploded: outer loop never runs
        # 6x5 arena, no pillars: bomb at bottom-left (power 2) runs off the bottom and left edges; second bomb's fuse
        # (30) outlasts max_ticks: the loop stops on the tick budget
        _arena(6, 5, [(3, 3)], [[5, 0, 1, 2], [2, 3, 30, 1]], pillars=False),
    ]
