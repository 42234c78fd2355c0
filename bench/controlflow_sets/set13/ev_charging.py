"""EV charging scheduler for a site with a shared grid connection (water-filling allocation).

A priority net scores each connected car (energy still needed, time to departure, max rate);
the site power is shared in proportion to priority, cars that hit their cap are frozen, and the
left-over power is re-shared until it is used up or every car is saturated.
"""

import torch
from torch import nn


class ChargingScheduler(nn.Module):
    def __init__(self, max_iter: int = 20, eps: float = 1e-3):
        super().__init__()
        self.priority = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 1))
        self.max_iter = max_iter
        self.eps = eps

    def forward(self, cars: torch.Tensor, site_limit: torch.Tensor):
        # cars: (N, 3) [kWh needed, hours to departure, max rate kW]; site_limit: () kW
        need, hours, max_rate = cars[:, 0], cars[:, 1], cars[:, 2]
        cap = torch.minimum(max_rate, need / hours.clamp_min(0.25))
        w = torch.nn.functional.softplus(self.priority(cars / 10.0)).squeeze(-1) + 0.1
        alloc = torch.zeros_like(cap)
        remaining = site_limit.clone()
        active = cap > 0
        it = 0
        while remaining > self.eps and it < self.max_iter:
            if not active.any():
                break  # every car is at its cap; power is left over
            wa = w * active.float()
            share = remaining * wa / wa.sum()
            new = torch.minimum(alloc + share, cap)
            remaining = remaining - (new - alloc).sum()
            alloc = new
            active = alloc < cap - 1e-6
            it += 1
        return alloc, remaining, torch.tensor(it)


def model() -> nn.Module:
    torch.manual_seed(0)
    return ChargingScheduler().eval()


def _cars(n, seed):
    g = torch.Generator().manual_seed(seed)
    need = 5.0 + 40.0 * torch.rand(n, generator=g)
    hours = 1.0 + 7.0 * torch.rand(n, generator=g)
    rate = torch.tensor([7.4, 11.0, 22.0])[torch.randint(0, 3, (n,), generator=g)]
    return torch.stack([need, hours, rate], 1)


def example_inputs() -> tuple:
    return (_cars(6, 0), torch.tensor(30.0))


def dynamic_shapes():
    return ({0: torch.export.Dim("cars", min=2, max=64)}, None)


def verify_inputs() -> list:
    return [
        (_cars(4, 1), torch.tensor(200.0)),    # plenty of power: all saturate, break
        (_cars(20, 2), torch.tensor(22.0)),    # scarce power
        (_cars(3, 3), torch.tensor(0.0)),      # grid outage: loop never runs
        (_cars(12, 4), torch.tensor(60.0)),
    ]
