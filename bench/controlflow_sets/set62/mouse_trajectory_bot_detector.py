"""Web bot detection from mouse-movement telemetry on a login page.

The browser sends a trace of (x, y, dt_ms) pointer events. Too-short traces get
a neutral score. Obviously scripted movement (ruler-straight paths or a
perfectly constant cursor speed) is flagged by rule; everything else is scored
by a small 1-D CNN over the kinematic channels (speed, acceleration, turning).

Kind: T.  Constructs: 1, 2, 3, 7, 8.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class MouseBotDetector(nn.Module):
    def __init__(self, min_events=8, nominal_dt=16.0):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(3, 16, 5, padding=2), nn.ReLU(),
            nn.Conv1d(16, 16, 5, padding=2), nn.ReLU(),
        )
        self.head = nn.Linear(16 + 2, 1)
        self.min_events = min_events
        self.nominal_dt = nominal_dt

    def clean_timestamps(self, dt):
        if (dt <= 0).any():
            # some browsers coalesce events and report zero / negative gaps
            dt = torch.full_like(dt, self.nominal_dt)
        return dt

    def kinematics(self, events):
        xy = events[:, :2]
        dt = self.clean_timestamps(events[1:, 2])
        step = xy[1:] - xy[:-1]
        dist = step.norm(dim=1)
        speed = dist / dt
        accel = torch.cat([torch.zeros(1), (speed[1:] - speed[:-1]) / dt[1:]])
        heading = torch.atan2(step[:, 1], step[:, 0])
        turn = torch.cat([torch.zeros(1), torch.sin(heading[1:] - heading[:-1])])
        return dist, speed, torch.stack([speed, accel * 10.0, turn], dim=0)

    def forward(self, events):
        # events: [T, 3] = (x px, y px, dt ms since previous event)
        if events.shape[0] < self.min_events:
            return torch.full((1,), 0.5)

        dist, speed, channels = self.kinematics(events)
        chord = (events[-1, :2] - events[0, :2]).norm()
        straightness = chord / dist.sum().clamp(min=1e-6)
        speed_cv = speed.std() / speed.mean().clamp(min=1e-6)
        if straightness > 0.995 or speed_cv < 0.02:
            return torch.ones(1)  # scripted cursor

        h = self.conv(channels.unsqueeze(0)).mean(dim=2).squeeze(0)
        logit = self.head(torch.cat([h, torch.stack([straightness, speed_cv])]))
        return torch.sigmoid(logit)


def model():
    torch.manual_seed(627)
    return MouseBotDetector().eval()


def _human(n, seed, bad_dt=False):
    g = torch.Generator().manual_seed(seed)
    t = torch.linspace(0, 1, n)
    x = 400 * t + 60 * torch.sin(5 * t) + 4 * torch.randn(n, generator=g)
    y = 200 * t ** 2 + 40 * torch.cos(3 * t) + 4 * torch.randn(n, generator=g)
    dt = 10.0 + 12.0 * torch.rand(n, generator=g)
    if bad_dt:
        dt[n // 3] = -5.0
    return (torch.stack([x, y, dt], dim=1),)


def _bot_line(n):
    t = torch.linspace(0, 1, n)
    # straight line but with jittery speed (so only the straightness rule fires)
    s = t + 0.01 * torch.sin(37 * t)
    return (torch.stack([100 + 300 * s, 50 + 150 * s, torch.full((n,), 16.0)], dim=1),)


def _bot_arc(n):
    # constant-speed circular arc: not straight, but the speed never varies
    ang = torch.linspace(0, 2.0, n)
    return (torch.stack([200 + 150 * torch.cos(ang), 200 + 150 * torch.sin(ang), torch.full((n,), 16.0)], dim=1),)


def example_inputs():
    return _human(64, 1)


def dynamic_shapes():
    return ({0: Dim("events", min=2, max=512)},)


def verify_inputs():
    return [
        example_inputs(),          # human trace: passes both rules, CNN score
        _human(5, 2),              # 5 events < min_events: neutral early return
        _human(200, 3, bad_dt=True),  # human with a negative time gap: timestamps replaced, CNN score
        (_bot_line(40)),           # straight scripted drag: first `or` operand -> 1.0
        (_bot_arc(30)),            # constant-speed arc: second `or` operand -> 1.0
        _human(8, 4),              # exactly min_events: scored by the CNN
    ]
