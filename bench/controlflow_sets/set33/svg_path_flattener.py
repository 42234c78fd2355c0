"""Flatten an SVG path of cubic Bezier segments into a polyline for a pen plotter.

curves: [C, 4, 2] control points of consecutive cubic segments (C dynamic),
tol: [1] flatness tolerance in plotter units.
Each segment is split adaptively (explicit stack, de Casteljau halving) until
its control polygon is within tolerance of the chord or a depth limit is hit.
A pen-up travel point is inserted when a segment does not start where the
previous one ended.  A small learned feed-rate head maps each polyline edge to
a speed.  Returns (points [P, 2], feed rates [P-1], pieces per segment [C]).
"""
import torch
import torch.nn as nn
from torch.export import Dim


def split_half(p):
    p01 = 0.5 * (p[0] + p[1])
    p12 = 0.5 * (p[1] + p[2])
    p23 = 0.5 * (p[2] + p[3])
    a = 0.5 * (p01 + p12)
    b = 0.5 * (p12 + p23)
    mid = 0.5 * (a + b)
    return torch.stack([p[0], p01, a, mid]), torch.stack([mid, b, p23, p[3]])


def flatness(p):
    chord = p[3] - p[0]
    length = torch.linalg.norm(chord)
    if length < 1e-3:
        # closed loop segment: use the distance of the handles from the endpoint
        return torch.maximum(torch.linalg.norm(p[1] - p[0]), torch.linalg.norm(p[2] - p[0]))
    normal = torch.stack([-chord[1], chord[0]]) / length
    return torch.maximum(((p[1] - p[0]) * normal).sum().abs(), ((p[2] - p[0]) * normal).sum().abs())


class PathFlattener(nn.Module):
    def __init__(self, max_depth=6, join_tol=1e-2):
        super().__init__()
        self.max_depth = max_depth
        self.join_tol = join_tol
        self.feed = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, curves, tol):
        points = [curves[0, 0]]
        counts = []
        for c in range(curves.shape[0]):
            seg = curves[c]
            if c > 0 and torch.linalg.norm(seg[0] - curves[c - 1, 3]) > self.join_tol:
                points.append(seg[0])  # pen up, travel to the new start
            stack = [(seg, 0)]
            pieces = 0
            while stack:
                p, depth = stack.pop()
                if depth >= self.max_depth or flatness(p) <= tol[0]:
                    points.append(p[3])
                    pieces += 1
                    continue
                left, right = split_half(p)
                stack.append((right, depth + 1))
                stack.append((left, depth + 1))
            counts.append(pieces)
        pts = torch.stack(points)
        edges = pts[1:] - pts[:-1]
        length = torch.linalg.norm(edges, dim=1, keepdim=True)
        turn = torch.cat([torch.zeros(1, 1), (edges[1:] * edges[:-1]).sum(1, keepdim=True)
                          / (length[1:] * length[:-1]).clamp_min(1e-6)])
        feed = 20.0 + 80.0 * torch.sigmoid(self.feed(torch.cat([length, turn, tol.expand(length.shape[0], 1)], 1)))
        return pts, feed.squeeze(1), torch.tensor(counts)


def model():
    torch.manual_seed(3)
    return PathFlattener().eval()


def _wave_path(n, seed, amp=10.0, gap_at=None):
    g = torch.Generator().manual_seed(seed)
    segs = []
    start = torch.zeros(2)
    for i in range(n):
        end = start + torch.tensor([20.0, 0.0]) + 4 * torch.randn(2, generator=g)
        c1 = start + torch.tensor([6.0, amp]) + torch.randn(2, generator=g)
        c2 = end + torch.tensor([-6.0, -amp]) + torch.randn(2, generator=g)
        segs.append(torch.stack([start, c1, c2, end]))
        start = end + (torch.tensor([5.0, 8.0]) if gap_at == i else 0.0)
    return torch.stack(segs)


def example_inputs():
    return (_wave_path(4, 1), torch.tensor([0.5]))


def dynamic_shapes():
    return ({0: Dim("segments", min=2, max=128)}, None)


def verify_inputs():
    loop = torch.tensor([[[0.0, 0.0], [30.0, 20.0], [-30.0, 20.0], [0.0, 0.0]],
                         [[0.0, 0.0], [5.0, 0.1], [10.0, -0.1], [15.0, 0.0]]])
    return [
        example_inputs(),                                  # continuous wavy path: adaptive split to mixed depths
        (_wave_path(3, 2, gap_at=1), torch.tensor([0.5])),  # gap after segment 1: pen-up travel point inserted
        (_wave_path(2, 3), torch.tensor(1e-4)[None]),      # tolerance far too tight: depth limit stops splitting
        (loop, torch.tensor([0.5])),                       # closed loop segment (zero chord), then an almost straight one
        (_wave_path(3, 4, amp=0.0), torch.tensor([5.0])),  # loose tolerance: segments emitted unsplit
    ]
