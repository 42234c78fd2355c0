"""Ride-hailing dispatch: greedy rider-to-driver matching by longest wait, pickup-distance cap, ETA cost."""
import torch
from torch import nn
from torch.export import Dim


class DriverMatcher(nn.Module):
    def __init__(self, max_pickup_km=3.0):
        super().__init__()
        self.max_pickup_km = max_pickup_km
        self.eta = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 1))

    def forward(self, riders, drivers, available):
        # riders: [R, 3] = x km, y km, minutes waited; drivers: [D, 2]; available: [D] 0/1
        R = riders.shape[0]
        dist = torch.cdist(riders[:, :2], drivers)
        order = torch.argsort(riders[:, 2], descending=True)
        free = available > 0.5
        match = torch.full((R,), -1, dtype=torch.long)
        total = torch.zeros(1)
        for k in range(R):
            if not free.any():
                break
            r = int(order[k])
            c = torch.where(free, dist[r], torch.full_like(dist[r], 1e6))
            j = int(torch.argmin(c))
            if c[j] > self.max_pickup_km:
                continue
            free = free.clone()
            free[j] = False
            match[r] = j
            feat = torch.stack([c[j], riders[r, 2] / 10.0]).view(1, 2)
            total = total + c[j] + torch.relu(self.eta(feat)).view(1)
        return match, total


def model():
    torch.manual_seed(0)
    return DriverMatcher().eval()


def example_inputs():
    riders = torch.tensor([[0.0, 0.0, 4.0], [2.0, 1.0, 9.5], [8.0, 8.0, 1.5], [1.0, 3.0, 6.2]])
    drivers = torch.tensor([[0.5, 0.2], [2.2, 1.9], [9.9, 9.7], [1.4, 3.3], [5.0, 5.0]])
    available = torch.tensor([1.0, 1.0, 1.0, 0.0, 1.0])
    return (riders, drivers, available)


def verify_inputs():
    return [
        (torch.tensor([[0.0, 0.0, 3.0], [1.0, 1.0, 7.0], [3.0, 0.5, 5.0]]),      # one driver, three riders
         torch.tensor([[0.6, 0.9], [12.0, 12.0]]), torch.tensor([1.0, 0.0])),
        (torch.tensor([[10.0, 10.0, 2.0], [0.0, 0.0, 8.0]]),                      # both riders far from the fleet
         torch.tensor([[4.0, 4.5], [5.0, 6.0], [6.5, 5.2]]), torch.tensor([1.0, 1.0, 1.0])),
        (torch.tensor([[1.0, 1.0, 2.5], [1.5, 0.5, 4.5], [0.2, 0.8, 0.5], [3.0, 3.0, 12.0], [2.5, 0.1, 7.7]]),
         torch.tensor([[1.2, 0.9], [0.4, 0.6], [3.1, 2.4], [2.9, 0.5]]), torch.tensor([1.0, 1.0, 1.0, 1.0])),
    ]


def dynamic_shapes():
    d = Dim("drivers", min=2, max=64)
    return ({0: Dim("riders", min=2, max=64)}, {0: d}, {0: d})
