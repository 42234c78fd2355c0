"""Wrist-gesture recogniser (smartwatch) with early-abandoning DTW against learned templates.

IMU samples (T, 6) of dynamic length are embedded by a small MLP and aligned to every
template at once with dynamic time warping, row by row (`for` over the dynamic T, inner
`for` over the static template length, list append + stack). If every template's best
partial cost already exceeds the abandon bound the search stops (`break`) and the
gesture is rejected. A final rejection threshold returns class -1.
Outputs: class id (1,) int64 and per-template normalised DTW costs (C,).
"""

import torch
import torch.nn as nn
from torch.export import Dim


class GestureDTW(nn.Module):
    def __init__(self, n_templates=4, tlen=12, abandon=1.6, reject=0.8):
        super().__init__()
        self.embed = nn.Sequential(nn.Linear(6, 16), nn.Tanh(), nn.Linear(16, 8))
        g = torch.Generator().manual_seed(42)
        self.templates = nn.Parameter(torch.randn(n_templates, tlen, 8, generator=g) * 0.5)
        self.abandon = abandon
        self.reject = reject

    def forward(self, imu):
        q = self.embed(imu)  # (T, 8)
        cost = (q[None, :, None, :] - self.templates[:, None, :, :]).norm(dim=-1)  # (C, T, M)
        n_c, t_len, m_len = cost.shape
        big = torch.full((n_c,), 1e6)
        prev = torch.cat([torch.zeros(n_c, 1), big[:, None].expand(n_c, m_len)], 1)  # row 0
        abandoned = False
        for i in range(t_len):
            cur = [big]
            for j in range(m_len):
                best = torch.minimum(torch.minimum(prev[:, j], prev[:, j + 1]), cur[j])
                cur.append(cost[:, i, j] + best)
            prev = torch.stack(cur, 1)
            if (prev[:, 1:].min(1).values / (i + 1) > self.abandon).all():
                abandoned = True
                break
        norm_cost = prev[:, m_len] / (t_len + m_len)
        if abandoned:
            return torch.tensor([-1]), norm_cost.clamp(max=1e3)
        best = norm_cost.argmin()
        label = best.view(1) if norm_cost[best] < self.reject else torch.tensor([-1])
        return label, norm_cost


def model():
    torch.manual_seed(0)
    return GestureDTW().eval()


def _imu(t, seed, scale=1.0):
    g = torch.Generator().manual_seed(seed)
    s = torch.linspace(0, 3.14, t).unsqueeze(1)
    return (scale * torch.sin(s * torch.arange(1, 7)) + 0.1 * torch.randn(t, 6, generator=g),)


def example_inputs():
    return _imu(24, 1)


def dynamic_shapes():
    return {"imu": {0: Dim("t", min=4, max=64)}}


def verify_inputs():
    return [_imu(40, 2, scale=40.0), _imu(8, 3, scale=0.3), _imu(64, 4, scale=3.0)]
