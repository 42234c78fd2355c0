"""Constant-velocity Kalman filter for a 2-D object track with learned noise
levels, Mahalanobis gating of outlier detections (coasting on misses) and
re-initialisation after too many consecutive misses."""
import torch
import torch.nn as nn


def inv2x2(m):
    a, b, c, d = m[0, 0], m[0, 1], m[1, 0], m[1, 1]
    det = a * d - b * c
    return torch.stack([torch.stack([d, -b]), torch.stack([-c, a])]) / det


class KalmanTracker(nn.Module):
    def __init__(self, dt=1.0, gate=9.0, max_misses=2):
        super().__init__()
        self.log_q = nn.Parameter(torch.randn(4) * 0.1 - 2.0)
        self.log_r = nn.Parameter(torch.randn(2) * 0.1 - 1.0)
        f = torch.eye(4)
        f[0, 2] = dt
        f[1, 3] = dt
        self.register_buffer("F", f)
        self.register_buffer("H", torch.eye(4)[:2])
        self.gate = gate
        self.max_misses = max_misses

    def init_state(self, z):
        x = torch.cat([z, torch.zeros(2)])
        p = torch.diag(torch.cat([self.log_r.exp(), torch.full((2,), 10.0)]))
        return x, p

    def forward(self, meas):
        q = torch.diag(self.log_q.exp())
        r = torch.diag(self.log_r.exp())
        x, p = self.init_state(meas[0])
        misses = torch.zeros((), dtype=torch.long)
        track = [x[:2]]
        for t in range(1, meas.shape[0]):
            x = self.F @ x
            p = self.F @ p @ self.F.T + q
            innov = meas[t] - self.H @ x
            s_inv = inv2x2(self.H @ p @ self.H.T + r)
            d2 = innov @ s_inv @ innov
            if d2 > self.gate:
                misses = misses + 1
                if misses >= self.max_misses:
                    x, p = self.init_state(meas[t])
                    misses = torch.zeros_like(misses)
                track.append(x[:2])
                continue
            k = p @ self.H.T @ s_inv
            x = x + k @ innov
            p = (torch.eye(4) - k @ self.H) @ p
            misses = torch.zeros_like(misses)
            track.append(x[:2])
        return torch.stack(track), misses


def model():
    torch.manual_seed(0)
    return KalmanTracker().eval()


def _trajectory(n, seed, outliers=(), jump_at=None):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(n, dtype=torch.float32).unsqueeze(1)
    z = torch.tensor([[1.0, -2.0]]) + t * torch.tensor([[0.8, 0.5]])
    z = z + 0.2 * torch.randn(n, 2, generator=g)
    for i in outliers:
        z[i] += torch.tensor([15.0, -12.0])
    if jump_at is not None:
        z[jump_at:] += torch.tensor([30.0, 20.0])
    return (z,)


def example_inputs():
    return _trajectory(10, 0, outliers=(6,))


def dynamic_shapes():
    return ({0: torch.export.Dim("steps", min=2, max=512)},)


def verify_inputs():
    return [
        _trajectory(14, 1, jump_at=7),
        _trajectory(5, 2),
        _trajectory(8, 3, outliers=(3, 7)),
    ]
