"""Lifeguard beach-flag advisor for rip-current risk (coastal safety).

Inputs are 15-minute buoy observations (significant wave height m, peak period
s, wave direction relative to shore-normal deg) and the tide level (m).  With
at least three hours of data a small temporal CNN (ModuleList of dilated conv
blocks) plus a physically motivated prior gives a risk probability, which is
turned into a green / yellow / red flag.  With less data a rule of thumb is
used instead.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

GREEN, YELLOW, RED = 0.0, 1.0, 2.0


class TemporalBlock(nn.Module):
    def __init__(self, ch, dilation):
        super().__init__()
        self.conv = nn.Conv1d(ch, ch, 3, padding=dilation, dilation=dilation)

    def forward(self, x):
        return x + 0.5 * torch.tanh(self.conv(x))


class RipCurrentAdvisor(nn.Module):
    def __init__(self, min_obs=12, ch=8):
        super().__init__()
        self.min_obs = min_obs
        self.inp = nn.Conv1d(4, ch, 1)
        self.blocks = nn.ModuleList(TemporalBlock(ch, d) for d in (1, 2, 4))
        self.head = nn.Linear(ch, 1)
        self.register_buffer("norm", torch.tensor([2.0, 10.0, 45.0, 1.0]))

    def rule_of_thumb(self, obs, tide):
        hs, period = obs[0], obs[1]
        if hs > 1.5 and period > 9.0:
            return torch.tensor(RED), torch.tensor(0.8)
        if hs > 0.8 or tide < -0.2:
            return torch.tensor(YELLOW), torch.tensor(0.5)
        return torch.tensor(GREEN), torch.tensor(0.2)

    def forward(self, waves, tide):
        if waves.shape[0] < self.min_obs:
            return self.rule_of_thumb(waves[-1], tide[-1])
        x = torch.cat([waves, tide.unsqueeze(-1)], dim=-1) / self.norm
        x = self.inp(x.T.unsqueeze(0))
        for block in self.blocks:
            x = block(x)
        learned = self.head(x.mean(-1)).squeeze()
        hs, period, direction = waves[-1, 0], waves[-1, 1], waves[-1, 2]
        prior = 2.5 * (hs - 1.0) + 0.4 * (period - 8.0) - 1.5 * tide[-1] - 0.02 * direction.abs()
        risk = torch.sigmoid(0.3 * learned + prior)
        if risk > 0.75 or (hs > 2.0 and period > 11.0):
            flag = torch.tensor(RED)
        elif risk > 0.4 and not tide[-1] > 1.0:
            flag = torch.tensor(YELLOW)
        else:
            flag = torch.tensor(GREEN)
        return flag, risk


def model():
    torch.manual_seed(909)
    return RipCurrentAdvisor().eval()


def _day(n, hs, period, direction, tide_mean, seed):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(n, dtype=torch.float32)
    waves = torch.stack([
        torch.full((n,), hs) + 0.05 * torch.randn(n, generator=g),
        torch.full((n,), period) + 0.3 * torch.randn(n, generator=g),
        torch.full((n,), direction) + 5.0 * torch.randn(n, generator=g),
    ], dim=-1)
    tide = tide_mean + 0.8 * torch.sin(2 * torch.pi * t / 50.0)
    return waves, tide


def example_inputs():
    return _day(24, 1.1, 10.0, 10.0, 0.0, seed=1)


def dynamic_shapes():
    t = torch.export.Dim("obs", min=2, max=288)
    return ({0: t}, {0: t})


def verify_inputs():
    return [
        # example: 6 h of moderate swell -> learned path, yellow flag
        example_inputs(),
        # calm day, a full day of data -> green
        _day(96, 0.4, 6.0, 30.0, 0.5, seed=2),
        # big long-period swell -> red via risk
        _day(48, 2.4, 13.0, 5.0, 0.0, seed=3),
        # moderate risk but high tide (not-clause false) -> green
        _day(12, 1.8, 11.0, 0.0, 1.4, seed=4),
        # very big swell at extreme high tide: risk low but the or-clause raises red
        _day(16, 2.6, 12.5, 60.0, 4.2, seed=5),
        # short record (2 obs): rule of thumb -> red
        (torch.tensor([[1.8, 11.0, 0.0], [1.9, 11.5, 5.0]]), torch.tensor([0.3, 0.2])),
        # short record: rule of thumb -> yellow via low tide
        (torch.tensor([[0.5, 7.0, 0.0], [0.5, 7.0, 0.0], [0.6, 7.0, 0.0]]), torch.tensor([0.0, -0.3, -0.5])),
        # short record: rule of thumb -> yellow via wave height, then green
        (torch.tensor([[1.0, 7.0, 0.0], [1.1, 7.0, 0.0]]), torch.tensor([0.5, 0.5])),
        (torch.tensor([[0.3, 5.0, 0.0], [0.3, 5.0, 0.0]]), torch.tensor([0.5, 0.5])),
    ]
