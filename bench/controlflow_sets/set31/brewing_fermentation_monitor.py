"""Homebrew / craft-brewery fermentation monitor (floating hydrometer feed).

Hourly specific-gravity and temperature readings of a fermenter are turned
into a status: finished (gravity stable and well attenuated), stuck (stable
but under-attenuated), running hot, or active; for unfinished batches a small
learned model predicts the final gravity from the yeast's behaviour so far.
"""
import torch
import torch.nn as nn


def is_stable(gravity, window, tolerance):
    """True when the last `window` readings moved less than `tolerance`."""
    if gravity.shape[0] < window:
        # not enough history to call it stable
        return torch.tensor(False)
    recent = gravity[-window:]
    return (recent.max() - recent.min()) < tolerance


class FermentationMonitor(nn.Module):
    def __init__(self, window=24, tolerance=0.001, max_temp=24.0, finished_attenuation=0.7):
        super().__init__()
        self.window = window
        self.tolerance = tolerance
        self.max_temp = max_temp
        self.finished_attenuation = finished_attenuation
        self.fg_net = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 1))

    def forward(self, gravity, temp):
        # gravity: [T] specific gravity (e.g. 1.052), temp: [T] wort temperature in C
        og = gravity[0]
        sg = gravity[-1]
        attenuation = (og - sg) / (og - 1.0)
        stable = is_stable(gravity, self.window, self.tolerance)
        if stable and attenuation > self.finished_attenuation:
            # terminal gravity reached: ready to cold-crash and package
            return sg, attenuation, torch.tensor(2)
        if stable:
            status = 3   # stuck: rouse the yeast or re-pitch
        elif (temp[-self.window:] > self.max_temp).any():
            status = 4   # running hot: fusel alcohol risk
        else:
            status = 1   # active fermentation
        feats = torch.stack([(og - 1.0) * 10.0, attenuation, temp.mean() / 20.0])
        expected = 0.75 + 0.05 * torch.tanh(self.fg_net(feats)).squeeze()
        fg = 1.0 + (og - 1.0) * (1.0 - expected)
        return fg, attenuation, torch.tensor(status)


def model():
    torch.manual_seed(19)
    return FermentationMonitor().eval()


def _make_log(hours, og, final_att, half_life, temp, seed, hot_from=None):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(hours, dtype=torch.float32)
    points = (og - 1.0) * (1.0 - final_att * (1.0 - torch.exp(-t / half_life)))
    gravity = 1.0 + points
    temps = temp + 0.3 * torch.rand(hours, generator=g)
    if hot_from is not None:
        temps[hot_from:] += 6.0
    return gravity, temps


def example_inputs():
    # day 2 of an ale: active
    return _make_log(48, 1.052, 0.78, 30.0, 19.0, 0)


def dynamic_shapes():
    hours = torch.export.Dim("hours", min=2, max=720)
    return ({0: hours}, {0: hours})


def verify_inputs():
    return [
        # active fermentation (not stable), temperature fine
        example_inputs(),
        # 10 hours of data: too short to be stable -> active
        _make_log(10, 1.048, 0.75, 20.0, 18.5, 1),
        # finished: stable for the last day at ~78 % attenuation -> early return
        _make_log(300, 1.060, 0.78, 12.0, 18.0, 2),
        # stuck at 40 % attenuation
        _make_log(300, 1.070, 0.40, 10.0, 16.0, 3),
        # active but the glycol chiller failed: running hot
        _make_log(60, 1.055, 0.80, 30.0, 20.0, 4, hot_from=50),
    ]
