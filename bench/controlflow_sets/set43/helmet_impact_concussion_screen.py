"""Football-helmet impact sensor: sideline concussion screen.

A helmet IMU streams linear acceleration (g) and angular velocity (rad/s).
Impacts are extracted greedily (largest peak first, a refractory window around
each is suppressed), each impact gets a severity estimate from a helper, and a
player is pulled for evaluation after a single severe hit or an accumulation of
moderate ones.
Constructs: 1, 2, 3, 4, 7
"""
import torch
import torch.nn as nn


def impact_severity(lin_peak, rot_peak):
    """Rough linear + rotational injury-risk score in [0, 1]."""
    lin = torch.sigmoid((lin_peak - 80.0) / 10.0)
    rot = torch.sigmoid((rot_peak - 30.0) / 5.0)
    return torch.maximum(lin, rot)


class ImpactScreen(nn.Module):
    def __init__(self, impact_g=20.0, refractory=10, max_impacts=6):
        super().__init__()
        self.impact_g = impact_g
        self.refractory = refractory
        self.max_impacts = max_impacts

    def forward(self, accel, gyro):
        lin = accel.norm(dim=1)
        rot = gyro.norm(dim=1)
        remaining = lin.clone()
        idx_range = torch.arange(lin.shape[0])

        severities = []
        n_impacts = 0
        while (remaining > self.impact_g).any() and n_impacts < self.max_impacts:
            peak = remaining.argmax()
            window = (idx_range - peak).abs() <= self.refractory
            sev = impact_severity(lin[peak], (rot * window).max())
            severities.append(sev)
            remaining = remaining.masked_fill(window, 0.0)
            n_impacts += 1

        if n_impacts == 0:
            return torch.zeros(()), torch.zeros(()), torch.zeros(())

        sev = torch.stack(severities)
        if sev.max() > 0.9:
            # single severe hit: remove from play immediately
            return torch.ones(()), sev.max(), sev.sum()
        cumulative = sev.sum()
        pull = torch.tensor(1.0) if cumulative > 1.5 or (sev > 0.4).sum() >= 3 else torch.tensor(0.0)
        return pull, sev.max(), cumulative


def model():
    return ImpactScreen().eval()


def _session(n, hits, seed=0):
    """hits: list of (index, peak_g, peak_rad_s)."""
    g = torch.Generator().manual_seed(seed)
    accel = torch.zeros(n, 3)
    accel[:, 2] = 1.0
    accel += 0.3 * torch.rand(n, 3, generator=g)
    gyro = 0.5 * torch.rand(n, 3, generator=g)
    for (i, peak, rot) in hits:
        for d, frac in ((-2, 0.3), (-1, 0.7), (0, 1.0), (1, 0.6), (2, 0.25)):
            accel[i + d, 0] = peak * frac
            gyro[i + d, 1] = rot * frac
    return accel, gyro


def example_inputs():
    return _session(120, [(20, 55.0, 12.0), (70, 38.0, 8.0)])


def dynamic_shapes():
    t = torch.export.Dim("t", min=16, max=512)
    return ({0: t}, {0: t})


def verify_inputs():
    return [
        example_inputs(),                                                   # two mild hits: loop twice, no pull
        _session(64, [], seed=1),                                           # no impact: loop 0 times, early return
        _session(200, [(30, 120.0, 20.0), (150, 45.0, 10.0)], seed=2),      # severe linear hit -> early return
        _session(300, [(20, 70.0, 32.0), (80, 72.0, 32.0), (140, 68.0, 32.0), (220, 70.0, 32.0)], seed=3),  # 4 x 0.6 hits -> pull on cumulative
        _session(260, [(20, 60.0, 29.0), (100, 62.0, 29.0), (180, 58.0, 29.0)], seed=6),  # 3 x 0.45 hits: sum 1.35 -> pull via `or` count
        _session(500, [(20 + 60 * k, 30.0 + 3 * k, 5.0) for k in range(8)], seed=4),   # 8 small hits: stops at max_impacts
        _session(40, [(20, 60.0, 35.0)], seed=5),                           # rotational severe (0.73 < 0.9) single hit, no pull
    ]
