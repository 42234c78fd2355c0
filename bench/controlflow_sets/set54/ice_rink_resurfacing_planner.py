"""Arena operations: plan the next ice resurfacing from the ice-thickness survey.

A grid of ultrasonic thickness readings (rows = lanes the resurfacer drives, cols
= positions along the lane) is turned into a roughness map (deviation from the
local 3x3 mean, plus a small learned rut detector). The planner picks a rink-wide
action and a per-lane pass count for the driver, and estimates flood water.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

NONE, RESURFACE, DEEP_FLOOD, CHILL_HOLD = 0, 1, 2, 3


class RutDetector(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, padding=1)
        self.conv2 = nn.Conv2d(4, 1, 3, padding=1)

    def forward(self, grid):
        h = F.relu(self.conv1(grid[None, None] / 40.0))
        return torch.tanh(self.conv2(h))[0, 0]


class ResurfacingPlanner(nn.Module):
    def __init__(self, min_thickness_mm=20.0, rough_limit=0.8, max_skater_minutes=90.0, wide_rink=32):
        super().__init__()
        self.ruts = RutDetector()
        self.min_thickness_mm = min_thickness_mm
        self.rough_limit = rough_limit
        self.max_skater_minutes = max_skater_minutes
        self.wide_rink = wide_rink

    def _roughness_map(self, grid):
        local_mean = F.avg_pool2d(grid[None, None], 3, stride=1, padding=1, count_include_pad=False)[0, 0]
        return (grid - local_mean).abs() + 0.05 * self.ruts(grid)

    def forward(self, thickness_mm, surface_temp_c, skater_minutes):
        grid = thickness_mm
        if grid.shape[1] > self.wide_rink:
            # full-size sheet: pair up readings along the lane, the blade is wider than the probe spacing
            grid = F.avg_pool1d(grid[:, None, :], 2, ceil_mode=True)[:, 0, :]
        rough = self._roughness_map(grid)
        roughness = rough.mean()
        minutes = skater_minutes.squeeze(-1)
        temp = surface_temp_c.squeeze(-1)

        lane_passes = []
        for r in range(grid.shape[0]):
            if grid[r].min() < self.min_thickness_mm:
                lane_passes.append(torch.tensor(2))
            elif rough[r].mean() > self.rough_limit:
                lane_passes.append(torch.tensor(1))
            else:
                lane_passes.append(torch.tensor(0))
        lane_passes = torch.stack(lane_passes)

        water_l = torch.zeros(())
        if grid.min() < self.min_thickness_mm:
            mode = DEEP_FLOOD
            water_l = (self.min_thickness_mm + 5.0 - grid).clamp(min=0.0).sum() * 0.9
        elif roughness > self.rough_limit or minutes > self.max_skater_minutes:
            mode = RESURFACE
            water_l = 400.0 + 50.0 * roughness
        elif temp > -3.0 and not (minutes > 45.0):
            mode = CHILL_HOLD  # soft ice and a quiet sheet: let the plant pull the slab down first
        else:
            mode = NONE
        return torch.tensor(mode), lane_passes, water_l, roughness


def model():
    torch.manual_seed(19)
    return ResurfacingPlanner().eval()


def _survey(h, w, mean, noise, seed, thin_spot=None):
    g = torch.Generator().manual_seed(seed)
    grid = mean + noise * torch.randn(h, w, generator=g)
    if thin_spot is not None:
        r, c = thin_spot  # a worn patch two probe stations long
        grid[r, c:c + 2] = 14.0 + 0.5 * torch.rand(2, generator=g)
    return grid


def example_inputs():
    return (_survey(8, 24, 32.0, 0.6, 1), torch.tensor([-5.0]), torch.tensor([40.0]))


def dynamic_shapes():
    h = torch.export.Dim("lanes", min=4, max=32)
    w = torch.export.Dim("stations", min=8, max=64)
    return ({0: h, 1: w}, None, None)


def verify_inputs():
    return [
        example_inputs(),                                                        # smooth, cold, light use -> none
        (_survey(32, 64, 32.0, 0.6, 2), torch.tensor([-6.0]), torch.tensor([120.0])),
        # ^ max grid (wide -> pooled); smooth but 120 skater minutes -> resurface via second `or` operand
        (_survey(4, 8, 30.0, 2.5, 3), torch.tensor([-6.0]), torch.tensor([20.0])),
        # ^ min grid; very rough -> resurface via first operand, all lanes get a shave pass
        (_survey(12, 40, 31.0, 0.6, 4, thin_spot=(5, 16)), torch.tensor([-5.0]), torch.tensor([30.0])),
        # ^ a thin spot -> deep flood; that lane gets 2 passes
        (_survey(6, 16, 33.0, 0.5, 5), torch.tensor([-1.5]), torch.tensor([20.0])),
        # ^ warm ice, quiet sheet -> chill hold
        (_survey(6, 16, 33.0, 0.5, 6), torch.tensor([-1.5]), torch.tensor([60.0])),
        # ^ warm ice but a busy session -> `not` fails -> none
    ]
