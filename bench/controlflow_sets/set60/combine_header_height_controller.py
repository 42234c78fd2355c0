"""Combine harvester header height & tilt control from ultrasonic ground sensors."""
import torch
import torch.nn as nn
from torch.export import Dim


def lateral_tilt(scan, spacing_m):
    """Ground slope across the header [m per m]."""
    w = scan.shape[0]
    if w >= 6:
        # enough sensors: least-squares slope, robust to one sensor over a furrow
        x = torch.arange(w, dtype=scan.dtype) * spacing_m
        x = x - x.mean()
        return (x * (scan - scan.mean())).sum() / (x * x).sum()
    return (scan[-1] - scan[0]) / (spacing_m * (w - 1))


class ObstacleNet(nn.Module):
    """Flags rocks / windrows from the sensor profile (conv across the header width)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(1, 4, kernel_size=3, padding=1)
        self.head = nn.Linear(4, 1)

    def forward(self, scan):
        # an object sticks up out of the profile: dip against the neighbouring sensors
        depth = (0.5 * (scan[:-2] + scan[2:]) - scan[1:-1]).amax()
        h = torch.relu(self.conv(scan.view(1, 1, -1) / 0.03))  # (1, 4, W)
        learned = torch.tanh(self.head(h.amax(-1))).squeeze()
        return torch.sigmoid((depth - 0.05) / 0.01 + 0.5 * learned)


class HeaderHeightController(nn.Module):
    def __init__(self, target_m=0.12, deadband_m=0.015, spacing_m=1.5):
        super().__init__()
        self.target_m, self.deadband_m = target_m, deadband_m
        self.spacing_m = spacing_m
        self.obstacle = ObstacleNet()
        self.gain = 2.5

    def forward(self, sensors, speed_kmh):
        # sensors (T, W) header-to-ground distance per scan and sensor; speed_kmh (T,)
        lift, tilt = [], []
        for t in range(sensors.shape[0]):
            scan = sensors[t]
            if scan.min() < 0.02 and speed_kmh[t] > 3.0:
                lift.append(torch.tensor(1.0))  # ground contact at speed: full raise
                tilt.append(torch.tensor(0.0))
                continue
            # faster travel -> anticipate more, rocks are reached sooner
            risk = self.obstacle(scan - self.target_m) * (speed_kmh[t] / 8.0).clamp(max=1.5)
            err = scan.mean() - self.target_m
            if risk > 0.8:
                cmd = torch.tensor(0.6)
            elif err.abs() < self.deadband_m:
                cmd = torch.tensor(0.0)
            else:
                cmd = (-self.gain * err).clamp(-0.5, 0.5)
            lift.append(cmd)
            tilt.append((-4.0 * lateral_tilt(scan, self.spacing_m)).clamp(-0.3, 0.3))
        return torch.stack(lift), torch.stack(tilt)


def model():
    torch.manual_seed(6005)
    return HeaderHeightController().eval()


def _field(T, W, seed, slope=0.0, bump_at=None, contact_at=None, speed=7.0):
    g = torch.Generator().manual_seed(seed)
    base = 0.12 + 0.03 * torch.randn(T, 1, generator=g).cumsum(0) * 0.2
    across = slope * torch.arange(W) * 1.5
    s = base + across + 0.004 * torch.randn(T, W, generator=g)
    if bump_at is not None:
        s[bump_at, W // 2] -= 0.09
    if contact_at is not None:
        s[contact_at, 0] = 0.01
    return s.clamp(min=0.0), torch.full((T,), speed)


def example_inputs():
    return _field(16, 8, 1, slope=0.01, bump_at=5)


def dynamic_shapes():
    scans = Dim("scans", min=2, max=64)
    return ({0: scans, 1: Dim("sensors", min=3, max=12)}, {0: scans})


def verify_inputs():
    return [
        _field(16, 8, 1, slope=0.01, bump_at=5),       # example: LS tilt, a rock at scan 5
        _field(2, 3, 2, slope=-0.02),                  # min scans / sensors: end-sensor tilt
        _field(64, 12, 3, contact_at=40, speed=9.0),   # max: ground contact at speed -> raise
        _field(8, 4, 4, contact_at=2, speed=1.0),      # contact while creeping: normal control
    ]
