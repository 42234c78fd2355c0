"""Highway lane-change planner (ADAS domain controller).

Inputs: ego state (4,) = [lane idx, s m, v m/s, n lanes] and surrounding vehicles (N, 5) =
[lane idx, s m, v m/s, length m, valid], N dynamic. For the current lane and each adjacent
lane, a helper checks the gap (early exits on the first conflict); feasible lanes are scored
by an MLP, and the planner returns the chosen lane plus one lateral-offset trajectory per
feasible lane (data-dependent number of rows, 1..3).
"""

import torch
from torch import nn

HORIZON = 10
DT = 0.5


def gap_ok(lane: float, ego: torch.Tensor, others: torch.Tensor, front_gap: float, rear_gap: float) -> torch.Tensor:
    for i in range(others.shape[0]):
        o = others[i]
        if o[4] < 0.5 or (o[0] - lane).abs() > 0.5:
            continue
        ds = o[1] - ego[1]
        if ds > 0 and ds - o[3] < front_gap + 0.5 * (ego[2] - o[2]).clamp_min(0.0) * 2.0:
            return torch.tensor(False)
        if ds <= 0 and -ds < rear_gap + (o[2] - ego[2]).clamp_min(0.0) * 2.0:
            return torch.tensor(False)
    return torch.tensor(True)


class LaneChangePlanner(nn.Module):
    def __init__(self, front_gap: float = 15.0, rear_gap: float = 10.0):
        super().__init__()
        self.front_gap, self.rear_gap = front_gap, rear_gap
        self.score = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 1))

    def lane_speed(self, lane: float, ego: torch.Tensor, others: torch.Tensor) -> torch.Tensor:
        ahead = ((others[:, 0] - lane).abs() < 0.5) & (others[:, 1] > ego[1]) & (others[:, 4] > 0.5)
        v = torch.where(ahead, others[:, 2], torch.full_like(others[:, 2], 40.0))
        return v.min()

    def forward(self, ego: torch.Tensor, others: torch.Tensor):
        lane = ego[0]
        t = torch.arange(1, HORIZON + 1, dtype=torch.float32) * DT
        best_lane = lane
        best_score = torch.tensor(-1e9)
        trajs = []
        for delta in (0, -1, 1):
            target = lane + delta
            if target < -0.5 or target > ego[3] - 0.5:
                continue
            if delta != 0 and not gap_ok(float(target), ego, others, self.front_gap, self.rear_gap):
                continue
            speed = self.lane_speed(float(target), ego, others)
            feats = torch.stack([speed / 40.0, torch.tensor(float(abs(delta))), ego[2] / 40.0])
            s = speed - 3.0 * abs(delta) + 0.1 * self.score(feats).squeeze()
            lateral = delta * 3.5 * (1 - torch.cos(torch.pi * t / t[-1])) / 2
            trajs.append(torch.stack([ego[1] + ego[2] * t, lateral], dim=1))
            if s > best_score:
                best_score, best_lane = s, target
        return best_lane, torch.stack(trajs)


def model() -> nn.Module:
    torch.manual_seed(0)
    return LaneChangePlanner().eval()


def example_inputs() -> tuple:
    ego = torch.tensor([1.0, 100.0, 30.0, 3.0])
    others = torch.tensor([
        [1.0, 140.0, 22.0, 4.5, 1.0],   # slow car ahead in ego lane
        [0.0, 180.0, 33.0, 4.5, 1.0],
        [2.0, 95.0, 31.0, 4.5, 1.0],    # right lane blocked (beside us)
        [0.0, 60.0, 28.0, 4.5, 0.0],    # invalid slot
    ])
    return ego, others


def dynamic_shapes():
    return (None, {0: torch.export.Dim("vehicles", min=2, max=64)})


def verify_inputs() -> list:
    return [
        # leftmost lane, free road: only keep / right
        (torch.tensor([0.0, 50.0, 25.0, 3.0]), torch.tensor([[2.0, 300.0, 30.0, 4.5, 1.0], [1.0, 20.0, 20.0, 4.5, 1.0]])),
        # rightmost lane: car in left lane ahead too close
        (torch.tensor([2.0, 50.0, 25.0, 3.0]), torch.tensor([[1.0, 60.0, 20.0, 4.5, 1.0], [2.0, 200.0, 25.0, 4.5, 1.0],
                                                              [2.0, 10.0, 26.0, 12.0, 1.0]])),
        # middle lane: fast car approaching from behind on the left, right lane fast and free
        (torch.tensor([1.0, 50.0, 25.0, 3.0]), torch.tensor([[0.0, 35.0, 35.0, 4.5, 1.0], [1.0, 70.0, 20.0, 4.5, 1.0],
                                                              [2.0, 250.0, 38.0, 4.5, 1.0]])),
    ]
