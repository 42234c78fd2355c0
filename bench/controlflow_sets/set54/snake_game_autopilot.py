"""Arcade game bot: greedy autopilot for Snake with a learned tie-breaking value map.

A small CNN looks at the walls and the food layout once and produces a value
map. For each food a breadth-first wavefront over the free cells gives the
path distance to it. Each tick the bot tries the four moves in a fixed order,
skipping moves off the board, into walls or into its own body, and takes the
one with the shortest distance to the food, with the value map as a small
tie-breaking bonus. Eating grows the snake; the bot stops when all food
is eaten, when it has no legal move, or at the step limit.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class BoardValue(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(2, 4, 3, padding=1)
        self.conv2 = nn.Conv2d(4, 1, 3, padding=1)

    def forward(self, walls, food_map):
        x = torch.stack([walls, food_map])[None]
        return torch.tanh(self.conv2(F.relu(self.conv1(x))))[0, 0]


def grow4(mask):
    """One 4-neighbour dilation step of a boolean grid."""
    out = mask.clone()
    out[1:] |= mask[:-1]
    out[:-1] |= mask[1:]
    out[:, 1:] |= mask[:, :-1]
    out[:, :-1] |= mask[:, 1:]
    return out


class SnakeAutopilot(nn.Module):
    def __init__(self, value_weight=0.1):
        super().__init__()
        self.value = BoardValue()
        self.value_weight = value_weight
        self.moves = [(-1, 0), (0, 1), (1, 0), (0, -1)]  # up, right, down, left

    def _distance_to(self, free, ty, tx):
        """Breadth-first wavefront from the food over free cells (walls only)."""
        h, w = free.shape
        unreachable = float(h * w)
        dist = torch.full((h, w), unreachable)
        frontier = torch.zeros(h, w, dtype=torch.bool)
        frontier[ty, tx] = True
        d = 0.0
        while frontier.any():
            dist[frontier] = d
            frontier = grow4(frontier) & free & (dist == unreachable)
            d += 1.0
        return dist

    def forward(self, walls, start, food):
        h, w = walls.shape[0], walls.shape[1]
        food_map = torch.zeros_like(walls)
        food_map[food[:, 0], food[:, 1]] = 1.0
        value = self.value(walls, food_map)
        max_steps = 200 if h * w > 256 else 100
        free = walls < 0.5

        y, x = int(start[0]), int(start[1])
        body = [(y, x)]
        path = [torch.tensor([y, x])]
        eaten, steps = 0, 0
        trapped = False
        dist, dist_for = None, -1
        while eaten < food.shape[0] and steps < max_steps:
            ty, tx = int(food[eaten, 0]), int(food[eaten, 1])
            if dist_for != eaten:
                dist, dist_for = self._distance_to(free, ty, tx), eaten
            best_score, best_cell = None, None
            for dy, dx in self.moves:
                ny, nx = y + dy, x + dx
                if ny < 0 or ny >= h or nx < 0 or nx >= w:
                    continue
                if not free[ny, nx] or (ny, nx) in body:
                    continue
                score = -dist[ny, nx] + self.value_weight * value[ny, nx]
                if best_score is None or score > best_score:
                    best_score, best_cell = score, (ny, nx)
            if best_cell is None:
                trapped = True
                break
            y, x = best_cell
            body.append((y, x))
            if (y, x) == (ty, tx):
                eaten += 1  # grow: keep the tail
            else:
                body.pop(0)
            path.append(torch.tensor([y, x]))
            steps += 1
        return torch.stack(path), torch.tensor(eaten), torch.tensor(int(trapped))


def model():
    torch.manual_seed(2048)
    return SnakeAutopilot().eval()


def _board(h, w, wall_cells, start, food):
    walls = torch.zeros(h, w)
    for r, c in wall_cells:
        walls[r, c] = 1.0
    return walls, torch.tensor(start, dtype=torch.long), torch.tensor(food, dtype=torch.long)


def example_inputs():
    wall = [(4, c) for c in range(2, 9)]
    return _board(10, 12, wall, (8, 1), [(1, 5), (7, 10), (2, 2)])


def dynamic_shapes():
    h = torch.export.Dim("rows", min=6, max=24)
    w = torch.export.Dim("cols", min=6, max=24)
    k = torch.export.Dim("food", min=2, max=8)
    return ({0: h, 1: w}, None, {0: k})


def verify_inputs():
    maze = [(r, 12) for r in range(0, 20)] + [(8, c) for c in range(3, 12)]
    vault = [(14, 15), (14, 16), (14, 17), (15, 15), (15, 17), (16, 15), (16, 16), (16, 17)]
    return [
        example_inputs(),  # routes around the wall, eats all three
        _board(24, 24, maze + vault, (2, 2), [(20, 20), (1, 22), (10, 5), (23, 0), (15, 16), (5, 18), (22, 8), (0, 0)]),
        # ^ max board and food: eats four, the fifth is walled in (unreachable) -> wanders until the 200-step limit
        _board(6, 6, [], (0, 0), [(5, 5), (0, 5)]),
        # ^ min board: eats both, moves off the edge are skipped (continue)
        _board(8, 8, [(0, 1), (1, 1), (2, 1)], (3, 0), [(0, 0), (6, 6)]),
        # ^ food at the end of a one-wide corridor: after eating, the grown snake blocks the exit -> trapped
    ]
