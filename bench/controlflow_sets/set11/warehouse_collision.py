"""Warehouse robot collision checker on the robot's controller.

Checks a planned path (N waypoints, dynamic) against circular obstacles (M, dynamic): each
segment is sampled every 25 cm (sample count from the segment length), the clearance to every
obstacle is computed, duplicate waypoints are skipped, and checking stops at the first colliding
segment. Returns the safe prefix of the path (data-dependent length), the clearance of every
checked segment and a speed limit derived from the minimum clearance by a helper with early
returns.
Tricky: for over a dynamic size with break and continue, nested for over int(t.item()), list
read back, data-dependent slice, helper with returns inside branches.
"""
import torch
from torch import nn

STEP = 0.25   # metres between collision samples


def speed_limit(clearance):
    if clearance < 0.3:
        return torch.full((), 0.2)
    if clearance < 1.0:
        return 0.2 + 0.8 * (clearance - 0.3) / 0.7
    return torch.full((), 1.0)


class CollisionChecker(nn.Module):
    def __init__(self):
        super().__init__()
        self.robot_radius = nn.Parameter(torch.tensor(0.35))

    def forward(self, path, obstacles):
        # path: (N, 2) metres; obstacles: (M, 3) x, y, radius
        clearances = []
        last_safe = path.shape[0] - 1
        for i in range(path.shape[0] - 1):
            a, b = path[i], path[i + 1]
            if (b - a).norm() < 1e-3:
                continue  # duplicate waypoint
            n_s = int((b - a).norm().item() / STEP) + 2             # samples along the segment
            samples = []
            for k in range(n_s):
                samples.append(a + (k / (n_s - 1)) * (b - a))
            pts = torch.stack(samples)                              # (S, 2)
            d = torch.cdist(pts, obstacles[:, :2])                  # (S, M)
            clear = (d - obstacles[:, 2] - self.robot_radius).min()
            clearances.append(clear)
            if clear < 0:
                last_safe = i
                break
        clr = torch.stack(clearances) if len(clearances) > 0 else torch.full((1,), 10.0)
        limit = speed_limit(clr.min())
        return path[: last_safe + 1], clr, limit


def model():
    torch.manual_seed(9)
    return CollisionChecker().eval()


def example_inputs():
    path = torch.tensor([[0.0, 0.0], [1.0, 0.0], [2.0, 0.5], [3.0, 1.0]])
    obs = torch.tensor([[1.5, 2.0, 0.3], [3.0, -1.5, 0.4]])
    return path, obs


def dynamic_shapes():
    return ({0: torch.export.Dim("n", min=2, max=128)}, {0: torch.export.Dim("m", min=2, max=64)})


def verify_inputs():
    return [
        # second segment hits an obstacle, a duplicate waypoint before it
        (torch.tensor([[0.0, 0.0], [0.0, 0.0], [1.0, 0.0], [2.0, 0.0], [3.0, 0.0]]),
         torch.tensor([[1.5, 0.2, 0.2], [5.0, 5.0, 0.5], [0.0, 3.0, 0.5]])),
        # far from everything
        (torch.tensor([[0.0, 0.0], [0.0, 4.0]]), torch.tensor([[10.0, 0.0, 0.5], [-10.0, 0.0, 0.5]])),
        # only duplicates: nothing to check
        (torch.tensor([[1.0, 1.0], [1.0, 1.0], [1.0, 1.0]]), torch.tensor([[2.0, 1.0, 0.1], [0.0, 5.0, 0.1]])),
        # tight corridor
        (torch.tensor([[0.0, 0.0], [4.0, 0.0]]), torch.tensor([[2.0, 0.6, 0.1], [2.0, -3.0, 0.1]])),
    ]
