"""Lane model fitting from detected lane-marking points.

A per-point confidence head scores candidate points (x lateral, y forward, in
metres).  Confident points are used for a weighted least-squares polynomial
fit x = c0 + c1*y + c2*y^2; with too few points the previous-frame style
straight-lane default is returned, with few points only a line is fitted.
Implausible curvature or lateral offset falls back to the linear fit.
Output: [c0, c1, c2, curvature_at_origin, n_points_used].
"""
import torch
import torch.nn as nn


def weighted_polyfit(y, x, w, degree):
    cols = [torch.ones_like(y)]
    for _ in range(degree):
        cols.append(cols[-1] * y)
    A = torch.stack(cols, 1)
    Aw = A * w.unsqueeze(1)
    coef = torch.linalg.solve(Aw.T @ A + 1e-4 * torch.eye(degree + 1), Aw.T @ x)
    if degree < 2:
        coef = torch.cat([coef, coef.new_zeros(2 - degree)])
    return coef


class LaneCurvatureEstimator(nn.Module):
    def __init__(self, conf_thresh=0.5, max_curvature=0.02, lane_width=3.6):
        super().__init__()
        self.conf_thresh = conf_thresh
        self.max_curvature = max_curvature
        self.lane_width = lane_width
        self.conf = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, points, intensity):
        feats = torch.cat([points / 30.0, intensity.unsqueeze(1)], 1)
        conf = torch.sigmoid(self.conf(feats)).squeeze(1)
        keep = conf > self.conf_thresh
        n = int(keep.sum().item())
        if n < 3:
            return torch.tensor([-self.lane_width / 2, 0.0, 0.0, 0.0, float(n)])
        y = points[keep, 1] / 10.0                      # normalise for conditioning
        x = points[keep, 0]
        w = conf[keep]
        if n < 6:
            coef = weighted_polyfit(y, x, w, 1)
        else:
            coef = weighted_polyfit(y, x, w, 2)
            curvature = 2 * coef[2] / 100.0             # d2x/dy2 in 1/m
            if curvature.abs().item() > self.max_curvature or coef[0].abs() > 2 * self.lane_width:
                coef = weighted_polyfit(y, x, w, 1)
        coef = coef * torch.tensor([1.0, 0.1, 0.01])     # back to metres
        return torch.cat([coef, (2 * coef[2]).view(1), torch.tensor([float(n)])])


def model():
    torch.manual_seed(0)
    m = LaneCurvatureEstimator()
    with torch.no_grad():
        # a "trained" head: confident when the marking is bright
        m.conf[0].weight.zero_()
        m.conf[0].bias.zero_()
        m.conf[0].weight[:, 2] = torch.linspace(0.5, 1.5, 16)
        m.conf[2].weight.fill_(0.8)
        m.conf[2].bias.fill_(-6.0)
    return m.eval()


def _points(g, n, curv, bright, x0=-1.8):
    y = torch.linspace(2.0, 40.0, n)
    x = x0 + 0.5 * curv * y ** 2 + 0.05 * torch.randn(n, generator=g)
    inten = torch.tensor(bright, dtype=torch.float32)
    return torch.stack([x, y], 1), inten


def example_inputs():
    g = torch.Generator().manual_seed(0)
    return _points(g, 8, 0.002, [1.0] * 8)


def dynamic_shapes():
    n = torch.export.Dim("n_points", min=2, max=64)
    return ({0: n}, {0: n})


def verify_inputs():
    g = torch.Generator().manual_seed(10)
    return [
        _points(g, 6, 0.0, [1.0, 0.0, 0.0, 1.0, 0.0, 0.0]),            # 2 confident points
        _points(g, 7, 0.001, [1.0, 1.0, 0.0, 1.0, 1.0, 0.0, 0.0]),      # 4 points: line fit
        _points(g, 12, 0.003, [1.0] * 10 + [0.0] * 2),                  # quadratic fit
        _points(g, 10, 0.08, [1.0] * 10),                                # implausible curvature
        _points(g, 9, 0.002, [1.0] * 9, x0=-9.0),                        # implausible offset
    ]
