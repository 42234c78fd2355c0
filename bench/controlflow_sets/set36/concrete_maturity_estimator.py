"""Construction: in-place concrete strength from embedded temperature loggers (Nurse-Saul maturity).

Kind T. Constructs: 1, 2, 3, 7, 8.
"""
import torch
import torch.nn as nn


class MixCalibration(nn.Module):
    """Maps mix design features to the strength-maturity curve parameters (Su, tau)."""

    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2))

    def forward(self, mix):
        # mix = [w/c ratio, cement kg/m3 / 100, admixture dose, fly-ash fraction]
        p = torch.sigmoid(self.net(mix))
        su = 25.0 + 30.0 * p[0]
        tau = 150.0 + 250.0 * p[1]
        if mix[3] > 0.3:
            # high-volume fly ash gains strength slowly
            tau = tau * 1.6
        return su, tau


class MaturityEstimator(nn.Module):
    def __init__(self, datum=-10.0, dt_hours=1.0, beta=0.9):
        super().__init__()
        self.datum = datum
        self.dt = dt_hours
        self.beta = beta
        self.calib = MixCalibration()

    def forward(self, temps, mix, target):
        su, tau = self.calib(mix)
        maturity = (temps - self.datum).clamp(min=0).sum() * self.dt
        if maturity <= 0:
            # concrete never got above the datum temperature: no strength gain
            zero = torch.zeros_like(su)
            return zero, zero, torch.full_like(su, 1e4)

        penalty = 1.0
        froze = (temps < 0).any()
        if froze and temps.shape[0] < 72:
            # frost during the first three days damages early-age concrete
            penalty = 0.7
        su = su * penalty
        strength = su * torch.exp(-(tau / maturity) ** self.beta)

        goal = target[0]
        if strength >= goal:
            remaining = torch.zeros_like(strength)
        elif su * 0.98 <= goal:
            # this mix will never reach the stripping strength
            remaining = torch.full_like(strength, 1e4)
        else:
            m_req = tau / (-torch.log(goal / su)) ** (1.0 / self.beta)
            rate = (temps[-24:] - self.datum).clamp(min=1.0).mean()
            remaining = ((m_req - maturity) / rate).clamp(min=0)
        ready = (strength >= goal).to(strength.dtype)
        return strength, ready, remaining


def model():
    torch.manual_seed(36003)
    return MaturityEstimator().eval()


def _temps(seed, hours, mean, swing, cold_snap=False):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(hours, dtype=torch.float32)
    x = mean + swing * torch.sin(2 * torch.pi * t / 24) + 0.5 * torch.randn(hours, generator=g)
    if cold_snap:
        x[hours // 3: hours // 3 + 6] = -4.0
    return x


MIX = torch.tensor([0.45, 3.5, 0.2, 0.1])
MIX_FLYASH = torch.tensor([0.40, 2.8, 0.1, 0.45])


def example_inputs():
    # five days at ~15C, ordinary mix, modest target -> already strong enough
    return (_temps(1, 120, 15.0, 5.0), MIX, torch.tensor([12.0]))


def dynamic_shapes():
    hours = torch.export.Dim("hours", min=2, max=2000)
    return ({0: hours}, None, None)


def verify_inputs():
    return [
        example_inputs(),                                                  # ready -> remaining 0
        (_temps(2, 48, 12.0, 4.0), MIX, torch.tensor([36.0])),             # not ready, reachable -> estimate hours
        (_temps(3, 48, 6.0, 6.0, cold_snap=True), MIX, torch.tensor([25.0])),   # frost in first 72h -> 0.7 penalty, reachable
        (_temps(4, 96, 10.0, 6.0, cold_snap=True), MIX, torch.tensor([10.0])),  # frost but older than 72h -> no penalty
        (_temps(5, 60, 14.0, 3.0), MIX_FLYASH, torch.tensor([70.0])),      # fly-ash mix; target above Su -> unreachable
        (torch.full((10,), -15.0), MIX, torch.tensor([5.0])),              # below datum the whole time -> early return
    ]
