"""Look-ahead feed planning for a 2-axis CNC / pen-plotter toolpath.

Kind X. Constructs: 1, 2, 5, 6, 7, 8.
The toolpath is a polyline of waypoints (mm).  Long paths are first
simplified by dropping nearly collinear points; zero-length moves are
skipped.  Junction speeds are limited by the turning angle, then a
backward and a forward pass make every segment reachable under the
acceleration limit, and each segment gets a trapezoidal or (if too short
to reach cruise speed) triangular velocity profile.  A small learned head
derates the feed on segments prone to chatter.  Output: total move time,
and per-segment times and peak speeds (one entry per kept segment).
"""
import math

import torch
import torch.nn as nn


def drop_collinear(pts, tol):
    kept = [pts[0]]
    for i in range(1, pts.shape[0] - 1):
        a = kept[-1]
        b = pts[i]
        c = pts[i + 1]
        ab = b - a
        bc = c - b
        cross = ab[0] * bc[1] - ab[1] * bc[0]
        if cross.abs() < tol * ab.norm() * bc.norm():
            continue  # b lies on the line a-c: not needed
        kept.append(b)
    kept.append(pts[-1])
    return torch.stack(kept)


def junction_speed(d_in, d_out, v_max, deviation, a_max):
    cos_theta = -(d_in * d_out).sum()
    if cos_theta > 0.999:
        return torch.zeros(())  # full reversal: stop
    if cos_theta < -0.999:
        return torch.full((), v_max)  # straight through
    sin_half = torch.sqrt(0.5 * (1 - cos_theta))
    r = deviation * sin_half / (1 - sin_half)
    return torch.sqrt(a_max * r).clamp(max=v_max)


def segment_profile(length, v0, v1, v_cruise, a):
    d_acc = (v_cruise ** 2 - v0 ** 2) / (2 * a)
    d_dec = (v_cruise ** 2 - v1 ** 2) / (2 * a)
    if d_acc + d_dec <= length:
        t = (v_cruise - v0) / a + (v_cruise - v1) / a + (length - d_acc - d_dec) / v_cruise
        return t, v_cruise
    v_peak = torch.sqrt((2 * a * length + v0 ** 2 + v1 ** 2) / 2)
    return (v_peak - v0) / a + (v_peak - v1) / a, v_peak


class MotionPlanner(nn.Module):
    def __init__(self, v_max=80.0, a_max=800.0, deviation=0.05, simplify_above=16, collinear_tol=1e-3):
        super().__init__()
        self.v_max, self.a_max, self.deviation = v_max, a_max, deviation
        self.simplify_above, self.collinear_tol = simplify_above, collinear_tol
        self.chatter = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 1))

    def forward(self, waypoints):
        pts = waypoints
        if pts.shape[0] > self.simplify_above:
            pts = drop_collinear(pts, self.collinear_tol)

        lengths, dirs = [], []
        for i in range(pts.shape[0] - 1):
            d = pts[i + 1] - pts[i]
            L = d.norm()
            if L < 1e-3:
                continue  # duplicate waypoint
            lengths.append(L)
            dirs.append(d / L)
        n = len(lengths)
        if n == 0:
            return torch.zeros(()), torch.zeros(0), torch.zeros(0)

        cruise = []
        for i in range(n):
            f = torch.stack([lengths[i] / 10.0, dirs[i].abs().min()])
            cruise.append(self.v_max * (0.6 + 0.4 * torch.sigmoid(self.chatter(f)).squeeze()))

        # junction speed limits (start and end at rest)
        v = [torch.zeros(())]
        for i in range(1, n):
            v.append(torch.minimum(junction_speed(dirs[i - 1], dirs[i], self.v_max, self.deviation, self.a_max),
                                   torch.minimum(cruise[i - 1], cruise[i])))
        v.append(torch.zeros(()))
        # backward pass: must be able to brake into the next junction
        for i in range(n - 1, -1, -1):
            v[i] = torch.minimum(v[i], torch.sqrt(v[i + 1] ** 2 + 2 * self.a_max * lengths[i]))
        # forward pass: must be able to accelerate out of the previous junction
        for i in range(n):
            v[i + 1] = torch.minimum(v[i + 1], torch.sqrt(v[i] ** 2 + 2 * self.a_max * lengths[i]))

        times, peaks = [], []
        for i in range(n):
            t, vp = segment_profile(lengths[i], v[i], v[i + 1], cruise[i], self.a_max)
            times.append(t)
            peaks.append(vp)
        times = torch.stack(times)
        return times.sum(), times, torch.stack(peaks)


def model():
    torch.manual_seed(3213)
    return MotionPlanner().eval()


def _poly(points):
    return (torch.tensor(points, dtype=torch.float32),)


def _circle(n, r, reps=1):
    ang = torch.linspace(0, 2 * math.pi * reps, n)
    return (torch.stack([r * torch.cos(ang), r * torch.sin(ang)], 1),)


def example_inputs():
    # small pocket outline: long straight sides and short corner moves
    return _poly([[0, 0], [40, 0], [40.5, 0.5], [40.5, 20], [40, 20.5], [0, 20.5], [0, 0]])


def dynamic_shapes():
    return ({0: torch.export.Dim("waypoints", min=2, max=512)},)


def verify_inputs():
    zigzag = [[float(i), 0.0 if i % 2 == 0 else 0.4] for i in range(12)]
    line = [[2.0 * i, 1.0 * i] for i in range(10)] + [[18.0, 30.0], [18.0, 31.0]]
    line += [[18.0, 31.0 + 2.0 * k] for k in range(1, 9)]
    return [
        example_inputs(),                           # 7 points: no simplification; trapezoids and triangles
        _circle(40, 30.0),                          # 40 points > 16: simplification runs, nothing collinear
        _poly(line),                                # 20 points, mostly collinear -> dropped, 2 segments remain
        _poly(zigzag),                              # sharp zigzag: short triangular moves, small junction speeds
        _poly([[0, 0], [10, 0], [0, 0], [0, 0]]),   # full reversal -> stop at junction; trailing duplicate
        _poly([[5, 5], [5, 5]]),                    # a single zero-length move: nothing to do (early return)
        _poly([[0, 0], [30, 0], [60, 0]]),          # straight-through junction
    ]
