"""Footstep planner for a walking robot crossing a mapped corridor.

The elevation map ahead of the robot is a strip of cells (along the path) by
five lateral lanes, each cell holding the filtered height and its variance.
For every step the planner tries the nominal stride, lengthens it while the
foothold is unsafe (too high a step, or too uncertain/soft ground, with a
learned safety margin), side-steps one lane left or right when even the
longest stride fails, and stops (asking the operator) when nothing works.
"""
import torch
import torch.nn as nn


def step_height_ok(terrain, cell, lane, prev_h, max_step):
    return (terrain[cell, lane, 0] - prev_h).abs() < max_step


def foothold_ok(terrain, margin, cell, lane, prev_h, max_step, max_var):
    if not step_height_ok(terrain, cell, lane, prev_h, max_step):
        return False
    # uncertain or soft ground: height variance plus the learned safety margin
    return terrain[cell, lane, 1] + margin[cell, lane] < max_var


class FootstepPlanner(nn.Module):
    def __init__(self, nominal_stride=2, max_stride=4, max_step=0.15, max_var=0.05):
        super().__init__()
        self.nominal_stride = nominal_stride
        self.max_stride = max_stride
        self.max_step = max_step
        self.max_var = max_var
        self.side_steps = (-1, 1)   # try left first, then right
        self.uncertainty = nn.Conv2d(2, 1, 3, padding=1)

    def safe(self, terrain, margin, cell, lane, prev_h):
        return foothold_ok(terrain, margin, cell, lane, prev_h, self.max_step, self.max_var)

    def forward(self, terrain):
        # terrain: [L, 5, 2] = height (m), height variance (m^2) per cell
        length, width = terrain.shape[0], terrain.shape[1]
        margin = 0.01 * torch.sigmoid(self.uncertainty(terrain.permute(2, 0, 1).unsqueeze(0)))[0, 0]
        pos, lane = 0, width // 2
        prev_h = terrain[0, lane, 0]
        steps = []
        stuck = torch.zeros(())
        while pos < length - 1:
            cand = min(pos + self.nominal_stride, length - 1)
            limit = min(pos + self.max_stride, length - 1)
            # lengthen the stride until the foothold is safe
            while not self.safe(terrain, margin, cand, lane, prev_h) and cand < limit:
                cand += 1
            if not self.safe(terrain, margin, cand, lane, prev_h):
                moved = False
                for d in self.side_steps:
                    side = lane + d
                    if side < 0 or side >= width:
                        continue
                    if self.safe(terrain, margin, cand, side, prev_h):
                        lane = side
                        moved = True
                        break
                if not moved:
                    stuck = torch.ones(())
                    break
            prev_h = terrain[cand, lane, 0]
            steps.append(torch.stack([torch.tensor(float(cand)), torch.tensor(float(lane)), prev_h]))
            pos = cand
        plan = torch.stack(steps) if steps else terrain.new_zeros(0, 3)
        return plan, stuck


def model():
    torch.manual_seed(73)
    return FootstepPlanner().eval()


def _make_corridor(length, features, seed):
    """features: (cell_from, cell_to, lane_from, lane_to, height, variance) boxes."""
    g = torch.Generator().manual_seed(seed)
    terrain = torch.zeros(length, 5, 2)
    terrain[..., 0] = 0.01 * torch.rand(length, 5, generator=g)
    terrain[..., 1] = 0.002 + 0.004 * torch.rand(length, 5, generator=g)
    for c0, c1, l0, l1, h, v in features:
        terrain[c0:c1, l0:l1, 0] = h + 0.01 * torch.rand(c1 - c0, l1 - l0, generator=g)
        terrain[c0:c1, l0:l1, 1] = v
    return (terrain,)


MUD = 0.3


def example_inputs():
    return _make_corridor(20, [
        (2, 3, 0, 5, 0.0, MUD),       # mud strip: stride +1
        (5, 7, 0, 5, 0.0, MUD),       # wider mud: stride +2
        (9, 13, 2, 3, 0.45, 0.004),   # box in the centre lane: side-step left
        (15, 16, 0, 5, 0.08, 0.004),  # low curb: safe step up
    ], 0)


def dynamic_shapes():
    return ({0: torch.export.Dim("cells", min=4, max=256)},)


def verify_inputs():
    return [
        # stride lengthened by 1 and by 2, side-step left, a step up onto a curb
        example_inputs(),
        # flat corridor: nominal strides only
        _make_corridor(9, [], 1),
        # left lane blocked too: side-step right
        _make_corridor(14, [(4, 9, 1, 3, 0.5, 0.004)], 2),
        # two left side-steps reach lane 0; the third obstacle needs "left" off the map
        # (skipped), then right
        _make_corridor(30, [(4, 9, 2, 3, 0.5, 0.004), (10, 15, 1, 2, 0.5, 0.004),
                            (16, 21, 0, 1, 0.5, 0.004)], 3),
        # wall across all lanes ahead: stuck after some steps
        _make_corridor(16, [(8, 16, 0, 5, 0.6, 0.004)], 4),
        # deep mud right in front of the start: stuck before the first step (empty plan)
        _make_corridor(6, [(1, 6, 0, 5, 0.0, MUD)], 5),
    ]
