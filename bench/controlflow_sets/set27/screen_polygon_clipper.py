"""Screen-space polygon clipping stage of a small software rasterizer.

A projected polygon (e.g. a decal or a UI panel) in normalized device
coordinates is clipped against the four screen edges in turn
(Sutherland-Hodgman), so the number of output vertices depends on the
geometry. The covered screen area, the centroid and a learned shading
feature of the visible part are returned.
"""
import torch
import torch.nn as nn


class ScreenPolygonClipper(nn.Module):
    def __init__(self, xmin=-1.0, xmax=1.0, ymin=-1.0, ymax=1.0):
        super().__init__()
        # (axis, sign, bound): a vertex p is on screen when sign * (p[axis] - bound) >= 0
        self.edges = [(0, 1.0, xmin), (0, -1.0, xmax), (1, 1.0, ymin), (1, -1.0, ymax)]
        self.shading = nn.Linear(3, 4)

    @staticmethod
    def intersect(p, q, axis, bound):
        t = (bound - p[axis]) / (q[axis] - p[axis])
        return p + t * (q - p)

    def clip_edge(self, poly, axis, sign, bound):
        out = []
        for i in range(poly.shape[0]):
            cur = poly[i]
            prev = poly[i - 1]
            cur_in = sign * (cur[axis] - bound) >= 0
            prev_in = sign * (prev[axis] - bound) >= 0
            if cur_in:
                if not prev_in:
                    out.append(self.intersect(prev, cur, axis, bound))  # entering
                out.append(cur)
            elif prev_in:
                out.append(self.intersect(prev, cur, axis, bound))  # leaving
        if len(out) == 0:
            return poly[:0]
        return torch.stack(out)

    def forward(self, polygon):
        # polygon: [V, 2] vertices in NDC, in winding order
        poly = polygon
        for axis, sign, bound in self.edges:
            if poly.shape[0] == 0:
                break
            poly = self.clip_edge(poly, axis, sign, bound)
        if poly.shape[0] < 3:
            return poly, torch.zeros(()), torch.zeros(4)
        x, y = poly[:, 0], poly[:, 1]
        xn, yn = torch.roll(x, -1), torch.roll(y, -1)
        area = 0.5 * (x * yn - xn * y).sum().abs()
        centroid = poly.mean(0)
        shade = self.shading(torch.cat([centroid, area.reshape(1)]))
        return poly, area, shade


def model():
    torch.manual_seed(0)
    return ScreenPolygonClipper().eval()


def _blob(n, cx, cy, radius, seed):
    # a star-shaped polygon around (cx, cy)
    g = torch.Generator().manual_seed(seed)
    ang = torch.linspace(0.0, 2 * torch.pi, n + 1)[:-1] + 0.1
    r = radius * (0.8 + 0.4 * torch.rand(n, generator=g))
    return (torch.stack([cx + r * torch.cos(ang), cy + r * torch.sin(ang)], dim=-1),)


def example_inputs():
    return _blob(8, 0.5, 0.2, 0.9, 0)


def dynamic_shapes():
    V = torch.export.Dim("vertices", min=3, max=64)
    return ({0: V},)


def verify_inputs():
    return [
        _blob(6, 0.0, 0.0, 0.5, 1),     # fully on screen
        _blob(9, 0.9, -0.6, 0.8, 2),    # crosses two screen edges
        _blob(12, 0.0, 0.0, 2.0, 3),    # covers the whole screen
        _blob(5, 4.0, 0.0, 0.5, 4),     # entirely off screen to the right
        _blob(4, 1.2, 1.2, 0.5, 5),     # only a corner sliver is visible
    ]
