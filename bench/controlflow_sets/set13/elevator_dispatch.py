"""Group elevator dispatcher: assigns hall calls to cars one by one, updating the car states.

Cost per car = travel distance + penalty for cars moving away + a learned load/congestion term.
Calls padded with floor -1 are skipped; calls no car can serve in time are left unassigned (-1).
"""

import torch
from torch import nn


class Dispatcher(nn.Module):
    def __init__(self, n_cars: int = 4, max_cost: float = 14.0, capacity: float = 8.0):
        super().__init__()
        self.cost_net = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 1))
        self.n_cars = n_cars
        self.max_cost = max_cost
        self.capacity = capacity

    def forward(self, cars: torch.Tensor, calls: torch.Tensor):
        # cars: (E, 3) [floor, direction -1/0/1, load]; calls: (R, 2) [floor, direction]
        floor = cars[:, 0]
        direction = cars[:, 1]
        load = cars[:, 2]
        assigned = []
        for r in range(calls.shape[0]):
            call_floor = calls[r, 0]
            if call_floor < 0:  # padding
                continue
            dist = (floor - call_floor).abs()
            away = (direction * (call_floor - floor) < 0).float()
            wrong_dir = (direction * calls[r, 1] < 0).float()
            feats = torch.stack([dist / 10.0, load / self.capacity, wrong_dir], dim=1)
            cost = dist + 6.0 * away + 3.0 * wrong_dir + torch.nn.functional.softplus(self.cost_net(feats)).squeeze(1)
            full = (load >= self.capacity).float()
            cost = cost + 100.0 * full
            if cost.min() > self.max_cost:
                assigned.append(torch.tensor(-1))
                continue
            best = torch.argmax(-cost)
            pick = torch.arange(self.n_cars) == best
            # the chosen car now heads to the call floor and picks up one passenger
            new_dir = torch.sign(call_floor - floor)
            direction = torch.where(pick & (direction == 0), new_dir, direction)
            floor = torch.where(pick, call_floor, floor)
            load = torch.where(pick, load + 1.0, load)
            assigned.append(best)
        if len(assigned) == 0:
            return torch.zeros(0, dtype=torch.long), torch.stack([floor, direction, load], 1)
        return torch.stack(assigned), torch.stack([floor, direction, load], 1)


def model() -> nn.Module:
    torch.manual_seed(0)
    return Dispatcher().eval()


def example_inputs() -> tuple:
    cars = torch.tensor([[0.0, 0.0, 0.0], [5.0, 1.0, 2.0], [12.0, -1.0, 5.0], [8.0, 0.0, 1.0]])
    calls = torch.tensor([[3.0, 1.0], [10.0, -1.0], [-1.0, 0.0], [15.0, -1.0]])
    return (cars, calls)


def dynamic_shapes():
    return (None, {0: torch.export.Dim("calls", min=2, max=32)})


def verify_inputs() -> list:
    busy = torch.tensor([[0.0, 1.0, 8.0], [2.0, 1.0, 8.0], [30.0, 1.0, 3.0], [1.0, -1.0, 8.0]])
    calls_far = torch.tensor([[20.0, -1.0], [21.0, 1.0], [7.0, 1.0]])
    pad_only = torch.tensor([[-1.0, 0.0], [-1.0, 0.0]])
    cars = torch.tensor([[2.0, 1.0, 0.0], [9.0, -1.0, 3.0], [4.0, 0.0, 7.0], [14.0, 1.0, 2.0]])
    many = torch.tensor([[float(f), 1.0 if f % 2 else -1.0] for f in [1, 6, 11, 3, 13, 8, 2, 10, 5, 12]])
    return [(busy, calls_far), (cars, pad_only), (cars, many)]
