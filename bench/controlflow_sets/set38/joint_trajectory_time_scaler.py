"""6-DoF arm: stretch the timing of a joint-space waypoint path until joint velocity
and acceleration limits hold (simple iterative time scaling before sending to the drives).

Kind T. Constructs: 1 2 3 4 7 8
"""
import torch
import torch.nn as nn


class TimeScaler(nn.Module):
    def __init__(self, max_iters=40, stretch=1.2):
        super().__init__()
        self.register_buffer("vel_limit", torch.tensor([2.0, 2.0, 2.5, 3.0, 3.0, 4.0]))   # rad/s
        self.register_buffer("acc_limit", torch.tensor([5.0, 5.0, 6.0, 8.0, 8.0, 10.0]))  # rad/s^2
        self.max_iters = max_iters
        self.stretch = stretch

    def segment_rates(self, q, dt):
        v = (q[1:] - q[:-1]) / dt
        if q.shape[0] > 2:
            a = (v[1:] - v[:-1]) / dt
        else:
            # a single segment has no interior waypoint to accelerate through
            a = torch.zeros(1, q.shape[1])
        return v, a

    def limit_ratio(self, v, a):
        rv = (v.abs() / self.vel_limit).max()
        ra = (a.abs() / self.acc_limit).max().sqrt()
        return torch.maximum(rv, ra)

    def forward(self, q, total_time):
        n = q.shape[0]
        dt = total_time.clamp(min=0.05) / (n - 1)
        v, a = self.segment_rates(q, dt)
        ratio = self.limit_ratio(v, a)
        it = 0
        while ratio > 1.0 and it < self.max_iters:
            dt = dt * self.stretch
            v, a = self.segment_rates(q, dt)
            ratio = self.limit_ratio(v, a)
            it += 1
        if ratio > 1.0:
            # infeasible even after max stretching: command a hold at the first waypoint
            return torch.zeros(n), torch.zeros_like(v)
        stamps = torch.arange(n, dtype=q.dtype) * dt
        return stamps, v


def model():
    torch.manual_seed(3)
    return TimeScaler().eval()


def _make_path(n, scale, seed):
    g = torch.Generator().manual_seed(seed)
    steps = torch.randn(n - 1, 6, generator=g) * scale
    return torch.cat([torch.zeros(1, 6), steps.cumsum(0)])


def example_inputs():
    return (_make_path(8, 0.4, 0), torch.tensor([2.0]))


def dynamic_shapes():
    return ({0: torch.export.Dim("waypoints", min=2, max=64)}, None)


def verify_inputs():
    return [
        example_inputs(),                                 # too fast: several stretch iterations, then feasible
        (_make_path(6, 0.01, 1), torch.tensor([3.0])),    # slow path: loop runs 0 times
        (_make_path(2, 0.5, 2), torch.tensor([0.1])),     # single segment (n == 2 branch in helper), a few iterations
        (_make_path(5, 0.05, 3), torch.tensor([0.525])),   # ratio just above 1 (1.10): exactly one iteration
        (_make_path(4, 400.0, 4), torch.tensor([0.1])),   # absurd path: hits max_iters, still infeasible -> hold
    ]
