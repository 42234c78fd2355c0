"""Avionics: ILS final-approach monitor (localizer / glideslope deviation, sink rate, go-around).

Kind T. Constructs: 1, 2, 3, 7, 8, 9.
"""
import torch
import torch.nn as nn


class ApproachMonitor(nn.Module):
    def __init__(self, cat_ii=False, window=5):
        super().__init__()
        self.cat_ii = cat_ii
        self.window = window
        self.risk = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))
        # radio altitude [ft], localizer [dots], glideslope [dots], vertical speed [fpm]
        self.register_buffer("scale", torch.tensor([1000.0, 2.0, 2.0, 1500.0]))

    def _smoothed(self, track):
        if track.shape[0] >= self.window:
            return track[-self.window:].mean(0)
        return track.mean(0)

    def _deviation_limit(self, alt):
        if self.cat_ii:  # static
            base = 0.5
        else:
            base = 1.0
        if alt > 500:
            return base
        return base * 0.5

    def forward(self, track):
        s = self._smoothed(track)
        alt, loc, gs, vs = s[0], s[1], s[2], s[3]
        risk = torch.sigmoid(self.risk(s / self.scale)).squeeze(-1)
        if alt > 1500:
            # not yet inside the monitored final-approach segment
            return torch.zeros_like(risk), risk

        limit = self._deviation_limit(alt)
        level = torch.zeros_like(risk)
        if loc.abs() > limit or gs.abs() > limit:
            level = torch.ones_like(level)  # LOCALIZER / GLIDESLOPE caution
        if vs < -1000 and alt < 1000:
            level = torch.full_like(level, 2.0)  # SINK RATE warning
        if level > 0.5 and alt < 300:
            level = torch.full_like(level, 3.0)  # unstable below 300 ft: GO AROUND
        return level, risk


def model():
    torch.manual_seed(36006)
    return ApproachMonitor().eval()


def _track(seed, n, alt_end, loc, gs, vs):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(n, dtype=torch.float32).flip(0)  # seconds before now
    alt = alt_end - vs / 60.0 * t
    cols = [
        alt,
        loc + 0.02 * torch.randn(n, generator=g),
        gs + 0.02 * torch.randn(n, generator=g),
        vs + 20.0 * torch.randn(n, generator=g),
    ]
    return torch.stack(cols, dim=1)


def example_inputs():
    # stabilised approach at ~800 ft
    return (_track(1, 30, 800.0, 0.1, -0.2, -700.0),)


def dynamic_shapes():
    steps = torch.export.Dim("steps", min=2, max=600)
    return ({0: steps},)


def verify_inputs():
    return [
        example_inputs(),                                    # stable, no alert
        (_track(2, 20, 2400.0, 0.3, 0.1, -800.0),),          # above 1500 ft -> early return
        (_track(3, 25, 900.0, 1.6, 0.0, -750.0),),           # localizer off (1st `or` operand) -> caution
        (_track(4, 25, 420.0, 0.2, 0.7, -650.0),),           # below 500 ft tighter limit, glideslope off (2nd operand), >=300 ft
        (_track(5, 25, 700.0, 0.1, 0.2, -1400.0),),          # sink rate warning
        (_track(6, 25, 1300.0, 0.1, 0.2, -1300.0),),         # sinking fast but above 1000 ft -> no warning
        (_track(7, 3, 250.0, 0.2, 0.9, -600.0),),            # short history (mean of all), unstable below 300 -> go around
    ]
