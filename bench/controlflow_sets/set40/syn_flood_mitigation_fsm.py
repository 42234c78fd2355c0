"""Edge-router SYN-flood mitigation: a per-window state machine
(NORMAL -> SUSPECT -> MITIGATING -> COOLDOWN) driven by the z-score of the SYN
rate against an adaptive baseline, with a learned drop policy while mitigating
(SYN cookies when handshakes still complete, outright blocking for few sources).

Kind X; constructs 1, 2, 3, 5, 7, 9."""
import torch
import torch.nn as nn
from torch.export import Dim

NORMAL, SUSPECT, MITIGATING, COOLDOWN = 0, 1, 2, 3


class DropPolicy(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, x, use_cookies):
        # x: (SYN rate per s, handshake completion ratio, distinct sources)
        if use_cookies and x[1] > 0.5:
            return torch.zeros_like(x[0])          # cookies absorb it, legit clients complete
        if x[2] < 50:
            return torch.ones_like(x[0])           # a handful of sources: block them outright
        z = torch.stack([torch.log1p(x[0]) / 10, x[1], torch.log1p(x[2]) / 10])
        return 0.5 + 0.5 * torch.sigmoid(self.net(z))[0]


class SynFloodMitigator(nn.Module):
    def __init__(self):
        super().__init__()
        torch.manual_seed(419)
        self.policy = DropPolicy()
        self.quiet_rate = 200.0       # SYN/s below which nothing can hurt us
        self.z_on = 4.0
        self.z_off = 2.0
        self.strikes_needed = 3
        self.min_hold = 3
        self.cooldown = 2
        self.alpha = 0.2              # baseline EWMA
        self.use_syn_cookies = True

    def forward(self, stats):
        # stats: [W, 3] per time window
        W = stats.shape[0]
        if stats[:, 0].max() < self.quiet_rate:
            return torch.zeros(W, dtype=torch.int64), torch.zeros(W, dtype=stats.dtype)
        mean = stats[0, 0]
        var = (0.1 * mean) ** 2 + 1.0
        state, strikes, hold, cool = NORMAL, 0, 0, 0
        states, drops = [], []
        for w in range(W):
            x = stats[w]
            z = (x[0] - mean) / torch.sqrt(var)
            if state == NORMAL:
                if z > self.z_on or x[1] < 0.2:
                    state, strikes = SUSPECT, 1
                else:
                    mean = (1 - self.alpha) * mean + self.alpha * x[0]
                    var = (1 - self.alpha) * var + self.alpha * (x[0] - mean) ** 2
            elif state == SUSPECT:
                if z > self.z_on:
                    strikes += 1
                    if strikes >= self.strikes_needed:
                        state, hold = MITIGATING, 0
                else:
                    state = NORMAL
            elif state == MITIGATING:
                hold += 1
                if z < self.z_off and hold >= self.min_hold:
                    state, cool = COOLDOWN, 0
            else:
                cool += 1
                if z > self.z_on:
                    state, hold = MITIGATING, 0
                elif cool >= self.cooldown:
                    state = NORMAL
            drop = self.policy(x, self.use_syn_cookies) if state == MITIGATING else torch.zeros_like(x[0])
            states.append(torch.tensor(state))
            drops.append(drop)
        return torch.stack(states), torch.stack(drops)


def model():
    return SynFloodMitigator().eval()


def _traffic(rates, ratio=0.9, sources=5000.0):
    rates = torch.tensor(rates, dtype=torch.float32)
    W = rates.shape[0]
    r = torch.full((W,), ratio) if not isinstance(ratio, list) else torch.tensor(ratio)
    s = torch.full((W,), sources) if not isinstance(sources, list) else torch.tensor(sources)
    return torch.stack([rates, r, s], dim=1)


def example_inputs():
    # baseline ~1000 SYN/s, spoofed flood (handshakes do not complete) from many sources, then it stops
    rates = [1000, 1040, 980, 1010, 9000, 9500, 9800, 9900, 9700, 1100, 1000, 990, 1020, 1000]
    ratio = [0.9] * 4 + [0.1] * 5 + [0.9] * 5
    return (_traffic(rates, ratio),)


def dynamic_shapes():
    return ({0: Dim("windows", min=2, max=64)},)


def verify_inputs():
    g = torch.Generator().manual_seed(4)
    long_rates = (1000 + 60 * torch.randn(64, generator=g)).tolist()
    long_rates[20:26] = [6000.0, 7000.0, 7500.0, 7400.0, 7600.0, 7000.0]          # flash crowd: handshakes complete
    long_rates[27:29] = [1050.0, 8000.0]                                           # re-flare during cooldown
    long_rates[29:33] = [8100.0, 8000.0, 1000.0, 1010.0]
    long_rates[40:42] = [5000.0, 1000.0]                                           # one-window spike: suspect, back to normal
    ratio = [0.9] * 64
    return [
        example_inputs(),                                   # full cycle: suspect, mitigate (many sources), cooldown, normal
        (_traffic([50.0, 60.0]),),                          # min length, quiet link -> early return
        (_traffic([800.0, 900.0, 20000.0, 21000.0, 20500.0, 900.0, 850.0],
                  [0.9, 0.9, 0.05, 0.05, 0.05, 0.9, 0.9], [3000.0, 3000.0, 20.0, 20.0, 20.0, 3000.0, 3000.0]),),
                                                            # few sources -> blocked outright; ends while still mitigating
        (_traffic(long_rates, ratio),),                     # max length: flash crowd (cookies), re-flare in cooldown, lone spike
        (_traffic([1000.0, 990.0, 1010.0, 1000.0], [0.9, 0.15, 0.9, 0.9]),),   # low completion ratio alone -> suspect, then normal
    ]
