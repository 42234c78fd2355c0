"""Anchor-drag alarm for a moored yacht.

The chart plotter logs GPS fixes relative to the point where the anchor was
dropped (metres east/north) together with apparent wind speed. A small MLP turns
swing statistics into alarm logits; hand-written seamanship rules decide whether
the boat is dragging (sound the alarm now), needs watching, or is fine.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class AnchorDragAlarm(nn.Module):
    def __init__(self, swing_radius=40.0, gust_limit=35.0, max_fixes=64):
        super().__init__()
        self.swing_radius = swing_radius
        self.gust_limit = gust_limit
        self.max_fixes = max_fixes
        self.head = nn.Sequential(nn.Linear(5, 16), nn.Tanh(), nn.Linear(16, 3))
        self.register_buffer("watch_bias", torch.tensor([-1.0, 1.0, 0.0]))

    def forward(self, track, wind):
        # long logs are decimated so the statistics cover a similar time span
        if track.shape[0] > self.max_fixes:
            track = track[::2]
            wind = wind[::2]

        dist = track.norm(dim=1)
        recent = dist[-4:]
        drift_rate = (recent[-1] - recent[0]) / 3.0
        bearing_spread = torch.atan2(track[:, 1], track[:, 0]).std()
        feats = torch.stack([
            dist.max() / self.swing_radius,
            dist.mean() / self.swing_radius,
            drift_rate,
            bearing_spread,
            wind.mean() / self.gust_limit,
        ])
        logits = self.head(feats)

        outside = dist[-1] > self.swing_radius
        if outside and drift_rate > 0.5:
            # outside the swing circle and still moving away: dragging
            alarm = torch.ones((), dtype=track.dtype)
            return logits, alarm, dist

        if outside or wind.max() > self.gust_limit:
            logits = logits + self.watch_bias
        alarm = torch.zeros((), dtype=track.dtype)
        return logits, alarm, dist


def model():
    torch.manual_seed(41)
    return AnchorDragAlarm().eval()


def _track(n, r0, r1, sweep=1.2):
    r = torch.linspace(r0, r1, n)
    ang = torch.linspace(0.0, sweep, n)
    return torch.stack([r * torch.cos(ang), r * torch.sin(ang)], dim=1)


def _wind(n, base, peak):
    w = torch.full((n,), base)
    w[n // 2] = peak
    return w


def example_inputs():
    return (_track(20, 25.0, 30.0), _wind(20, 12.0, 18.0))


def dynamic_shapes():
    n = Dim("fixes", min=4, max=256)
    return ({0: n}, {0: n})


def verify_inputs():
    return [
        example_inputs(),                                   # short log, inside circle, calm -> no watch bias
        (_track(20, 30.0, 60.0), _wind(20, 15.0, 20.0)),    # outside and drifting away -> early return (dragging)
        (_track(20, 45.0, 46.0), _wind(20, 10.0, 14.0)),    # outside but not drifting (and false) -> watch via outside
        (_track(12, 20.0, 22.0), _wind(12, 20.0, 45.0)),    # inside but gusting -> watch via wind (or 2nd operand)
        (_track(100, 10.0, 70.0), _wind(100, 8.0, 12.0)),   # long log decimated; outside and drifting -> alarm
        (_track(80, 15.0, 18.0), _wind(80, 8.0, 10.0)),     # long log decimated, inside, calm
        (_track(4, 20.0, 20.5), _wind(4, 5.0, 6.0)),        # minimum log length, inside calm
    ]
