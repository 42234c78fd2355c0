"""Assembly-line nutrunner: torque/angle signature check of one tightening.

Finds the snug point (end of rundown), follows the torque-rate in the final stage,
stops at target torque, detects yielding (torque-rate collapse) and over-limits,
and scores the joint with a small learned quality net.
Output: [status, snug angle, final torque, quality]; status 0 no seat, 1 ok,
2 yield before target, 3 over torque/angle limit.
"""
import torch
import torch.nn as nn


class JointQualityNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))

    def forward(self, feats):
        return torch.sigmoid(self.net(feats))[0]


class TighteningMonitor(nn.Module):
    def __init__(self, snug=2.0, target=12.0, max_torque=13.0, max_angle=360.0, window=5):
        super().__init__()
        self.quality = JointQualityNet()
        self.snug, self.target = snug, target
        self.max_torque, self.max_angle = max_torque, max_angle
        self.window = window

    def forward(self, torque, angle):
        n = torque.shape[0]
        i = 0
        while i < n and torque[i] < self.snug:  # rundown: screw turns freely
            i += 1
        if i == n:
            # never seated: cross-threaded or missing part
            return torch.stack([torch.tensor(0.0), angle[-1], torque.max(), torch.tensor(0.0)])
        snug_angle = angle[i]
        status = torch.tensor(1.0)
        final = i
        rates = []
        peak_rate = torch.tensor(0.0)
        for j in range(i + self.window, n, self.window):
            final = j
            w = self.window
            rate = (torque[j] - torque[j - w]) / (angle[j] - angle[j - w] + 1e-3)
            rates.append(rate)
            peak_rate = torch.maximum(peak_rate, rate)
            if torque[j] >= self.target:
                break  # target reached, tool shuts off
            if rate < 0.5 * peak_rate and angle[j] - snug_angle > 30.0:
                status = torch.tensor(2.0)  # torque rate collapsed: bolt is yielding
                break
        if len(rates) == 0:
            ratio = torch.tensor(1.0)
        else:
            r = torch.stack(rates)
            ratio = r[-1] / r.max().clamp(min=1e-3)
        turned = angle[final] - snug_angle
        if torque[final] > self.max_torque or turned > self.max_angle:
            status = torch.tensor(3.0)
        q = self.quality(torch.stack([torque[final] / self.target, turned / 360.0, ratio]))
        return torch.stack([status, snug_angle, torque[final], q])


def model():
    torch.manual_seed(5806)
    return TighteningMonitor().eval()


def _curve(n, snug_at, rate, yield_at=None, overshoot=0.0, seed=0):
    """Synthetic nutrunner trace: 1.5 deg/sample, rundown drag, then linear torque rise."""
    g = torch.Generator().manual_seed(seed)
    angle = 1.5 * torch.arange(n, dtype=torch.float32)
    torque = 0.5 + 0.05 * torch.rand(n, generator=g)
    rise = (angle - 1.5 * snug_at).clamp(min=0) * rate
    if yield_at is not None:
        knee = 1.5 * (yield_at - snug_at) * rate
        rise = torch.where(rise > knee, knee + 0.05 * (rise - knee), rise)
    torque = torque + rise + 1.6 * (angle >= 1.5 * snug_at).float()
    torque[-1] = torque[-1] + overshoot
    return torque, angle


def example_inputs():
    return _curve(100, snug_at=20, rate=0.1, seed=1)


def dynamic_shapes():
    s = torch.export.Dim("samples", min=8, max=400)
    return ({0: s}, {0: s})


def verify_inputs():
    return [
        # clean joint: snug at sample 20, reaches 12 Nm target -> status 1
        example_inputs(),
        # 8 samples of rundown only: never seats -> status 0 (early return)
        _curve(8, snug_at=50, rate=0.1, seed=2),
        # 400 samples, soft joint yields at sample 150 before target -> status 2
        _curve(400, snug_at=40, rate=0.05, yield_at=150, seed=3),
        # seats on the last sample: no rate windows at all
        _curve(30, snug_at=29, rate=0.1, seed=4),
        # tool overshoot on the last window past the torque limit -> status 3
        _curve(46, snug_at=10, rate=0.1, overshoot=6.0, seed=5),
        # stiff joint runs out of samples below target (loop ends without break)
        _curve(40, snug_at=10, rate=0.08, seed=6),
    ]
