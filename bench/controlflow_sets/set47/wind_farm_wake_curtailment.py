"""Wind-farm wake model + grid-limit curtailment.

Pairwise wake deficits (nested loops with continue), power curve, then
iterative derating until the farm output respects the grid limit.

Constructs: 1, 2 (early return below cut-in), 3 (`and` in while / `or`),
4 (while on tensor condition), 5 (for over the dynamic turbine count, append +
stack), 6 (continue on tensor conditions in the inner loop).
"""
import torch
import torch.nn as nn


def wake_radius(down):
    return 40.0 + 0.1 * down


class WindFarmCurtailment(nn.Module):
    def __init__(self):
        super().__init__()
        self.fatigue = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1))

    def forward(self, pos, wind, limit):
        # pos: [N, 2] metres, wind: [2] m/s vector, limit: [1] grid limit (per-unit of one turbine)
        speed = wind.norm()
        n = pos.shape[0]
        if speed < 3.0:
            return torch.zeros(n), torch.zeros(n), torch.ones(1)
        dirn = wind / speed
        deficits = []
        for i in range(n):
            d_i = torch.zeros(())
            for j in range(n):
                if i == j:
                    continue
                rel = pos[i] - pos[j]
                down = (rel * dirn).sum()
                if down <= 0:
                    continue  # i is upwind of j
                lateral = (rel - down * dirn).norm()
                if lateral > wake_radius(down):
                    continue
                d_i = d_i + 0.3 * (40.0 / wake_radius(down)) ** 2
            deficits.append(d_i.clamp(max=0.8))
        deficit = torch.stack(deficits)
        v_eff = speed * (1.0 - deficit)
        power = ((v_eff / 12.0) ** 3).clamp(max=1.0)
        scale = torch.ones(1)
        steps = 0
        while power.sum() > limit.squeeze() and steps < 30:
            scale = scale * 0.9
            power = power * 0.9
            steps += 1
        fatigue = torch.sigmoid(self.fatigue(torch.stack([deficit, v_eff / 12.0], -1))).squeeze(-1)
        return power, fatigue, scale


def model():
    torch.manual_seed(10)
    return WindFarmCurtailment().eval()


def _layout(rows, cols):
    pts = []
    for r in range(rows):
        for c in range(cols):
            pts.append([500.0 * c + 150.0 * r, 300.0 * r])
    return torch.tensor(pts)


def example_inputs():
    return (_layout(2, 4), torch.tensor([10.0, 0.0]), torch.tensor([100.0]))


def dynamic_shapes():
    return ({0: torch.export.Dim("turbines", min=2, max=24)}, None, None)


def verify_inputs():
    return [
        example_inputs(),                                                 # wakes, limit high: 0 derate steps
        (_layout(1, 2), torch.tensor([2.0, 0.0]), torch.tensor([1.0])),   # below cut-in -> early return
        (_layout(4, 6), torch.tensor([11.0, 0.0]), torch.tensor([5.5])),  # max size, many derate steps
        (_layout(1, 3), torch.tensor([-9.0, 0.0]), torch.tensor([1.0])),  # wind from the east, 1 derate step
        (_layout(3, 2), torch.tensor([12.0, 0.0]), torch.tensor([3.0])),  # cross-row far wakes, several steps
    ]
