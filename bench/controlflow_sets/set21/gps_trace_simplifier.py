"""Fitness-tracker GPS trace simplification (Douglas-Peucker with an explicit work stack) + route length."""
import torch
from torch import nn
from torch.export import Dim


def farthest_point(pts, i, j, eps):
    """Index of the interior point farthest from chord i-j, or -1 when none deviates more than eps."""
    if j - i < 2:
        return -1
    a, b = pts[i], pts[j]
    ab = b - a
    rel = pts[i + 1:j] - a
    cross = (ab[0] * rel[:, 1] - ab[1] * rel[:, 0]).abs()
    d = cross / torch.clamp(ab.norm(), min=1e-6)
    if d.max() <= eps:
        return -1
    return i + 1 + int(torch.argmax(d))


class TraceSimplifier(nn.Module):
    def __init__(self, eps_m=5.0):
        super().__init__()
        self.eps_m = eps_m
        self.speed_head = nn.Linear(3, 1)

    def forward(self, pts):
        N = pts.shape[0]
        keep = torch.zeros(N)
        keep[0] = 1.0
        keep[N - 1] = 1.0
        stack = [(0, N - 1)]
        while stack:  # nonzero-trips: the stack starts with the whole trace
            i, j = stack.pop()
            k = farthest_point(pts, i, j, self.eps_m)
            if k < 0:
                continue
            keep[k] = 1.0
            stack.append((i, k))
            stack.append((k, j))
        idx = keep.nonzero().squeeze(1)
        kept = pts[idx]
        length = (kept[1:] - kept[:-1]).norm(dim=1).sum().view(1)
        feat = torch.cat([length / 1000.0, keep.sum().view(1) / N, torch.full((1,), N / 100.0)])
        pace = torch.nn.functional.softplus(self.speed_head(feat))
        return keep, length, pace


def model():
    torch.manual_seed(0)
    return TraceSimplifier().eval()


def _trace(n, wiggle, seed):
    g = torch.Generator().manual_seed(seed)
    t = torch.linspace(0.0, 1.0, n)
    x = 400.0 * t
    y = 120.0 * torch.where(t < 0.5, t, 1.0 - t) + wiggle * torch.sin(37.0 * t)
    jitter = (torch.rand(n, 2, generator=g) - 0.5) * 1.2
    return torch.stack([x, y], 1) + jitter


def example_inputs():
    return (_trace(40, 9.0, 1),)


def verify_inputs():
    return [
        (torch.tensor([[0.0, 0.0], [50.0, 1.5], [100.0, -1.0], [150.0, 0.7]]),),   # straight street: nothing kept
        (_trace(120, 0.0, 2),),
        (_trace(9, 25.0, 3),),
    ]


def dynamic_shapes():
    return ({0: Dim("fixes", min=4, max=512)},)
