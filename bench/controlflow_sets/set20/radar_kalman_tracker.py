"""Radar single-target Kalman tracker (constant-velocity model, 2-D).

For each scan the state is predicted; dropped scans or detections failing the
Mahalanobis gate are skipped with `continue`; otherwise the state is updated.
Output: state history [T, 4] and the number of missed scans.
"""
import torch
import torch.nn as nn


class KalmanTracker(nn.Module):
    def __init__(self, dt=0.1, gate=9.0):
        super().__init__()
        self.gate = gate
        F_ = torch.eye(4)
        F_[0, 2] = F_[1, 3] = dt
        self.register_buffer("F", F_)
        self.register_buffer("H", torch.eye(4)[:2])
        self.log_q = nn.Parameter(torch.full((4,), -4.0) + 0.1 * torch.randn(4))
        self.log_r = nn.Parameter(torch.full((2,), -2.0) + 0.1 * torch.randn(2))

    def mahalanobis(self, y, S):
        return y @ torch.linalg.solve(S, y)

    def forward(self, meas, valid):  # meas: [1, T, 2]; valid: [1, T] bool
        x = torch.cat([meas[0, 0], torch.zeros(2)])
        P = torch.eye(4)
        Q, R = torch.diag(self.log_q.exp()), torch.diag(self.log_r.exp())
        hist, misses = [], torch.zeros((), dtype=torch.long)
        for t in range(meas.shape[1]):
            x = self.F @ x
            P = self.F @ P @ self.F.T + Q
            y = meas[0, t] - self.H @ x
            S = self.H @ P @ self.H.T + R
            if not valid[0, t] or self.mahalanobis(y, S) > self.gate:
                misses = misses + 1
                hist.append(x)
                continue
            K = P @ self.H.T @ torch.linalg.inv(S)
            x = x + K @ y
            P = (torch.eye(4) - K @ self.H) @ P
            hist.append(x)
        return torch.stack(hist), misses


def _track(T, drops, jumps, seed):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(T, dtype=torch.float32)[:, None] * 0.1
    pos = torch.cat([1.0 + 2.0 * t, -0.5 + 1.0 * t], 1) + 0.05 * torch.randn(T, 2, generator=g)
    for j in jumps:
        pos[j] += torch.tensor([6.0, -5.0])
    valid = torch.ones(T, dtype=torch.bool)
    valid[list(drops)] = False
    return pos.unsqueeze(0), valid.unsqueeze(0)


def model():
    torch.manual_seed(0)
    return KalmanTracker().eval()


def example_inputs():
    return _track(12, [4], [8], 0)


def dynamic_shapes():
    T = torch.export.Dim("scans", min=2, max=100)
    return ({1: T}, {1: T})


def verify_inputs():
    return [
        _track(2, [], [], 1),
        _track(30, [3, 4, 5, 17], [10, 22], 2),
        _track(7, [], [], 3),
    ]
