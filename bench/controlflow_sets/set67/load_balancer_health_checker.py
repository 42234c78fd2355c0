"""Load-balancer active health checks -> backend traffic weights.

Probe latencies (ms, -1 = no answer, > 500 ms counts as a failure) for every backend over the last probe
rounds drive the usual rise/fall hysteresis (down after 3 consecutive failures,
up again after 2 consecutive successes). A round where no backend answered at all
is blamed on the checker's own network and ignored. Healthy backends get
weights from their mean latency and a small learned quality score; if none
is healthy the balancer fails open with uniform weights.

Constructs: 1, 2, 3, 5, 6, 9
"""
import torch
import torch.nn as nn
from torch.export import Dim


class HealthChecker(nn.Module):
    def __init__(self, slow_start=True):
        super().__init__()
        self.fall = 3
        self.rise = 2
        self.timeout_ms = 500.0
        self.slow_start = slow_start
        self.scorer = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, lat):
        B, P = lat.shape
        up = torch.ones(B, dtype=torch.bool)
        fails = torch.zeros(B)
        oks = torch.zeros(B)
        for t in range(P):
            answered = lat[:, t] >= 0
            if not answered.any():
                continue  # no backend answered at all: checker-side outage, ignore the round
            ok = answered & (lat[:, t] < self.timeout_ms)
            fails = torch.where(ok, torch.zeros_like(fails), fails + 1)
            oks = torch.where(ok, oks + 1, torch.zeros_like(oks))
            up = torch.where(fails >= self.fall, torch.zeros_like(up),
                             torch.where(oks >= self.rise, torch.ones_like(up), up))

        if not up.any():
            # nothing healthy: fail open
            return torch.full((B,), 1.0 / B), up.float()

        valid = ((lat >= 0) & (lat < self.timeout_ms)).float()
        mean_lat = (lat.clamp(min=0) * valid).sum(1) / valid.sum(1).clamp(min=1)
        spread = ((lat - mean_lat[:, None]).abs() * valid).sum(1) / valid.sum(1).clamp(min=1)
        feat = torch.stack([mean_lat / 100.0, spread / 100.0, fails], dim=1)
        quality = torch.sigmoid(self.scorer(feat)).squeeze(1)
        w = up.float() * (0.5 + quality) / (1.0 + mean_lat / 100.0)
        if self.slow_start:  # static
            w = torch.where(oks < 2 * self.rise, 0.5 * w, w)  # freshly recovered backends ramp up
        return w / w.sum(), up.float()


def model():
    torch.manual_seed(67)
    return HealthChecker().eval()


def example_inputs():
    # 4 backends x 10 rounds: backend 2 dies at round 4, backend 3 is slow, round 6 is a checker outage
    lat = torch.tensor([
        [12.1, 11.8, 13.0, 12.4, 12.9, -1.0, 12.2, 11.7, 12.5, 12.0],
        [20.3, 19.7, 21.2, 20.8, 19.9, -1.0, 20.4, 21.0, 20.1, 19.6],
        [15.2, 14.9, 15.7, -1.0, -1.0, -1.0, -1.0, -1.0, 620.0, -1.0],
        [180.4, 210.7, 195.3, 240.1, 199.8, -1.0, 185.6, 220.2, 205.9, 190.3],
    ])
    return (lat,)


def dynamic_shapes():
    return ({0: Dim("backends", min=2, max=32), 1: Dim("rounds", min=2, max=64)},)


def verify_inputs():
    return [
        example_inputs(),  # outage round (continue), a backend goes down, healthy ones get weights
        # every backend ends up down (timeouts and too-slow answers): fail open
        (torch.tensor([[-1.0, 700.0, 800.0, 650.0], [13.0, 600.0, -1.0, -1.0], [-1.0, -1.0, 900.0, 900.0]]),),
        (torch.tensor([[30.5, 31.2, 29.8], [-1.0, 45.1, 44.7]]),),  # short history: nobody down, both backends still in slow start (half weight)
    ]
