"""Heat-index advisory for one weather station's hourly readings.

Kind T. Constructs: 1, 2, 3, 9.
Follows the US NWS heat-index procedure: the simple Steadman estimate is
used unless it (averaged with the temperature) reaches 80F, in which case
the full Rothfusz regression is used together with the low-humidity or the
high-humidity adjustment.  A small MLP turns daily features into
probabilities for the advisory levels (none / caution / warning); days
that are off the chart skip the MLP and get an extreme-danger advisory.
"""
import torch
import torch.nn as nn


class HeatIndexAdvisor(nn.Module):
    def __init__(self, output_celsius=True):
        super().__init__()
        self.output_celsius = output_celsius
        self.risk = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 3))

    def rothfusz(self, t, rh):
        return (-42.379 + 2.04901523 * t + 10.14333127 * rh
                - 0.22475541 * t * rh - 6.83783e-3 * t * t
                - 5.481717e-2 * rh * rh + 1.22874e-3 * t * t * rh
                + 8.5282e-4 * t * rh * rh - 1.99e-6 * t * t * rh * rh)

    def forward(self, temp_f, rh):
        simple = 0.5 * (temp_f + 61.0 + (temp_f - 68.0) * 1.2 + rh * 0.094)
        hi = simple
        if ((simple + temp_f) / 2).mean() >= 80:
            hi = self.rothfusz(temp_f, rh)
            if rh.mean() < 13 and temp_f.min() >= 80 and temp_f.max() <= 112:
                adj = (13 - rh) / 4 * torch.sqrt((17 - (temp_f - 95).abs()).clamp(min=0) / 17)
                hi = hi - adj
            elif rh.mean() > 85 and temp_f.max() <= 87:
                hi = hi + (rh - 85) / 10 * (87 - temp_f) / 5

        peak = hi.max()
        if peak > 130:
            # off the NWS chart: extreme danger, no need for the model
            advisory = torch.tensor([0.0, 0.0, 1.0])
            return advisory, (hi - 32) * 5 / 9 if self.output_celsius else hi

        feats = torch.stack([hi.mean(), peak, temp_f.mean(), rh.mean()]) / 100.0
        advisory = torch.softmax(self.risk(feats), dim=-1)
        hi_out = (hi - 32) * 5 / 9 if self.output_celsius else hi
        return advisory, hi_out


def model():
    torch.manual_seed(3201)
    return HeatIndexAdvisor().eval()


def _day(seed, t_mean, t_amp, rh_mean, rh_amp, hours=24):
    g = torch.Generator().manual_seed(seed)
    h = torch.arange(hours, dtype=torch.float32)
    diurnal = torch.sin((h - 9) / 24 * 2 * torch.pi)
    temp = t_mean + t_amp * diurnal + 0.5 * torch.randn(hours, generator=g)
    rh = rh_mean - rh_amp * diurnal + 1.0 * torch.randn(hours, generator=g)
    return temp, rh.clamp(1, 100)


def example_inputs():
    # hot, moderately humid summer day -> Rothfusz, no adjustment
    return _day(1, 92.0, 6.0, 50.0, 10.0)


def dynamic_shapes():
    hours = torch.export.Dim("hours", min=2, max=168)
    return ({0: hours}, {0: hours})


def verify_inputs():
    return [
        example_inputs(),                       # >=80 branch, neither adjustment, model path
        _day(2, 68.0, 5.0, 60.0, 10.0, 48),     # mild: simple formula only, model path
        _day(3, 98.0, 5.0, 8.0, 1.5, 12),       # desert: low-RH adjustment (all 3 'and' terms true)
        _day(4, 104.0, 12.0, 7.0, 1.0, 24),     # very hot & dry, max > 112 -> 'and' fails late, no adjustment
        _day(5, 84.0, 1.0, 90.0, 2.0, 6),       # muggy mild: high-RH adjustment (elif)
        _day(6, 90.0, 2.0, 90.0, 2.0, 8),       # muggy but max > 87: elif 'and' fails, no adjustment
        _day(7, 105.0, 4.0, 60.0, 5.0, 36),     # off the chart -> early return (extreme)
        _day(8, 75.0, 2.0, 40.0, 2.0, 2),       # two-hour series, simple formula only
    ]
