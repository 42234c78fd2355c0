"""Field of view + monster policy for a grid roguelike.

The dungeon map holds 0 for floor, 1 for wall and 0.3 for smoke, which is
partially opaque. Bresenham rays are cast from the player to every cell on the
map border; each ray lights cells until it hits a wall, leaves through an open
border cell, or has accumulated too much smoke. A small CNN over (map, field of
view) then gives the nearest monster's move logits (up/down/left/right).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim


def cast_ray(grid, visible, r0, c0, r1, c1, max_opacity=0.8):
    dr, dc = abs(r1 - r0), abs(c1 - c0)
    sr = 1 if r1 > r0 else -1
    sc = 1 if c1 > c0 else -1
    err = dr - dc
    r, c = r0, c0
    opacity = grid.new_zeros(())
    while grid[r, c] < 0.5:
        visible[r, c] = 1.0
        opacity = opacity + grid[r, c]
        if opacity > max_opacity:
            break  # too much smoke: nothing further is visible
        if r == r1 and c == c1:
            return  # left the map through an open border cell
        e2 = 2 * err
        if e2 > -dc:
            err -= dc
            r += sr
        if e2 < dr:
            err += dr
            c += sc
    visible[r, c] = 1.0  # the wall that stopped the ray is itself visible


class FieldOfViewPolicy(nn.Module):
    def __init__(self, channels=(2, 8, 16), pool_above=16):
        super().__init__()
        self.convs = nn.ModuleList([nn.Conv2d(a, b, 3, padding=1) for a, b in zip(channels[:-1], channels[1:])])
        self.head = nn.Linear(channels[-1], 4)
        self.pool_above = pool_above

    def field_of_view(self, grid, r0, c0):
        h, w = grid.shape
        visible = torch.zeros_like(grid)
        for c in range(w):
            cast_ray(grid, visible, r0, c0, 0, c)
            cast_ray(grid, visible, r0, c0, h - 1, c)
        for r in range(1, h - 1):
            cast_ray(grid, visible, r0, c0, r, 0)
            cast_ray(grid, visible, r0, c0, r, w - 1)
        return visible

    def forward(self, grid, player):
        r0, c0 = int(player[0]), int(player[1])
        inside = 0 <= r0 < grid.shape[0] and 0 <= c0 < grid.shape[1]
        if not inside or grid[r0, c0] > 0.5:
            # off the map or spawned inside a wall: invalid state, nothing visible, no move preference
            return torch.zeros_like(grid), grid.new_zeros(4)

        visible = self.field_of_view(grid, r0, c0)
        x = torch.stack([grid, visible]).unsqueeze(0)
        if grid.shape[0] > self.pool_above or grid.shape[1] > self.pool_above:
            x = F.avg_pool2d(x, 2)
        for conv in self.convs:
            x = F.relu(conv(x))
        logits = self.head(x.mean(dim=(2, 3))).squeeze(0)
        return visible, logits


def model():
    torch.manual_seed(59)
    return FieldOfViewPolicy().eval()


def _room(h, w, walls=(), smoke=(), open_cells=(), border=True):
    g = torch.zeros(h, w)
    if border:
        g[0, :] = 1.0
        g[-1, :] = 1.0
        g[:, 0] = 1.0
        g[:, -1] = 1.0
    for r, c in walls:
        g[r, c] = 1.0
    for r, c in smoke:
        g[r, c] = 0.3
    for r, c in open_cells:
        g[r, c] = 0.0
    return g


def example_inputs():
    grid = _room(8, 10, walls=[(3, 4), (4, 4), (5, 4)], smoke=[(2, 7), (2, 8)])
    return grid, torch.tensor([4, 2])


def dynamic_shapes():
    return ({0: Dim("rows", min=4, max=32), 1: Dim("cols", min=4, max=32)}, None)


def verify_inputs():
    return [
        example_inputs(),                                             # walls stop rays; 2 smoke cells (not opaque)
        (_room(8, 10), torch.tensor([0, 3])),                         # player inside a wall -> early return
        (_room(6, 7, open_cells=[(0, 3), (5, 3), (2, 0)]), torch.tensor([2, 3])),  # rays leave through open border
        (_room(7, 12, smoke=[(3, c) for c in range(4, 10)]), torch.tensor([3, 2])),  # thick smoke: opacity stop
        (_room(32, 32, walls=[(r, 16) for r in range(5, 27)], smoke=[(10, 8), (11, 8), (12, 8)]),
         torch.tensor([15, 5])),                                      # max map: pooled features (rows > 16)
        (_room(4, 4), torch.tensor([1, 2])),                          # minimum map
        (_room(6, 6), torch.tensor([7, 2])),                          # player off the map -> early return
        (_room(5, 20, walls=[(2, 10)]), torch.tensor([2, 3])),        # wide map: pooled via cols only
    ]
