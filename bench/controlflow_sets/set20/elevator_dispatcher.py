"""Elevator group dispatcher: assigns a pending hall call to one of four cars.

Each car has its own learned cost scorer (ModuleList, static loop). If every car
is full nobody is dispatched; with no full car and a high-floor call the
nearest car goes express; otherwise the cheapest non-full car is chosen.
"""
import torch
import torch.nn as nn


class ElevatorDispatcher(nn.Module):
    def __init__(self, n_cars=4, express_mode=True):
        super().__init__()
        self.express_mode = express_mode
        self.scorers = nn.ModuleList([nn.Linear(6, 1) for _ in range(n_cars)])

    def forward(self, cars, calls):  # cars: [4, 3] (floor, load, direction); calls: [R, 3]
        ctx = calls.mean(0)
        costs = []
        for i, scorer in enumerate(self.scorers):  # static
            costs.append(scorer(torch.cat([cars[i], ctx])).squeeze(0))
        cost = torch.stack(costs)
        full = cars[:, 1] > 0.9
        top = calls[:, 0].max()
        if full.all():
            choice = torch.tensor(-1)
            eta = torch.zeros(())
        elif not full.any() and top > 8.0:
            dist = (cars[:, 0] - top).abs()
            choice = dist.argmin()
            eta = dist.min() * 1.5
        else:
            cost = cost + full.float() * 100.0 + 0.3 * (cars[:, 0] - top).abs()
            choice = cost.argmin()
            eta = cost.min().abs()
        if self.express_mode:  # static
            eta = eta * 0.8
        return choice, eta


def _calls(R, lo, hi, seed):
    g = torch.Generator().manual_seed(seed)
    floors = lo + (hi - lo) * torch.rand(R, generator=g)
    return torch.stack([floors, torch.rand(R, generator=g), torch.rand(R, generator=g)], 1)


def model():
    torch.manual_seed(0)
    return ElevatorDispatcher().eval()


def example_inputs():
    cars = torch.tensor([[1.3, 0.2, 1.0], [5.6, 0.95, -1.0], [9.1, 0.4, 0.0], [12.7, 0.5, 1.0]])
    return (cars, _calls(5, 2.0, 7.0, 0))


def dynamic_shapes():
    return (None, {0: torch.export.Dim("calls", min=2, max=32)})


def verify_inputs():
    cars_free = torch.tensor([[0.4, 0.1, 1.0], [3.3, 0.3, 1.0], [7.8, 0.5, -1.0], [14.2, 0.6, 0.0]])
    cars_full = torch.tensor([[2.2, 0.97, 1.0], [4.6, 0.93, 1.0], [6.1, 0.99, -1.0], [11.5, 0.95, 0.0]])
    return [
        (cars_free, _calls(12, 9.0, 15.0, 1)),   # express to high floor
        (cars_free, _calls(3, 1.0, 6.0, 2)),     # low calls: cheapest car
        (cars_full, _calls(7, 1.0, 15.0, 3)),    # everyone full
    ]
