"""Variable-star light-curve triage for a photometric survey.

From a magnitude time series: amplitude, autocorrelation period and skewness,
then a rule cascade (low-amplitude / short-period pulsator / Cepheid-like /
Mira-like) plus a learned embedding for the downstream classifier.
"""
import torch
import torch.nn as nn


class VariableStarTriage(nn.Module):
    def __init__(self, min_points=16, n_blocks=2):
        super().__init__()
        self.min_points = min_points
        self.inp = nn.Linear(3, 16)
        self.blocks = nn.ModuleList([nn.Linear(16, 16) for _ in range(n_blocks)])
        self.out = nn.Linear(16, 4)

    def embed(self, x):
        h = torch.relu(self.inp(x))
        for blk in self.blocks:
            h = h + torch.relu(blk(h))
        return self.out(h)

    def autocorr_period(self, mags):
        c = mags - mags.mean()
        n = mags.shape[0]
        acf = torch.stack([(c[:-k] * c[k:]).mean() for k in range(1, n // 2)])
        # after the first negative lobe, take the shortest lag whose correlation
        # is close to the strongest one (avoids locking onto harmonics)
        first_neg = (acf < 0).int().argmax()
        tail = acf[first_neg:]
        strong = tail >= 0.8 * tail.max()
        return (first_neg + strong.int().argmax() + 1).float()

    def forward(self, mags):
        if mags.shape[0] < self.min_points:
            # too few epochs to say anything
            return torch.tensor(-1), torch.zeros(4)

        amp = mags.max() - mags.min()
        period = self.autocorr_period(mags)
        skew = ((mags - mags.mean()) ** 3).mean() / (mags.std() ** 3 + 1e-6)

        if amp < 0.1:
            cls = torch.tensor(0)  # constant / micro-variable
        elif amp > 1.0 and period > 20:
            cls = torch.tensor(3)  # Mira-like long period variable
        elif period < 5 or not (skew < 0):
            cls = torch.tensor(1)  # short-period pulsator (RR Lyr / delta Sct)
        else:
            cls = torch.tensor(2)  # Cepheid-like
        feats = self.embed(torch.stack([amp, torch.log(period), skew]))
        return cls, feats


def model():
    torch.manual_seed(5109)
    return VariableStarTriage().eval()


def _curve(n, amp, period, sharp, seed):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(n, dtype=torch.float32)
    ph = 2 * torch.pi * t / period
    shape = torch.sin(ph) + sharp * torch.cos(2 * ph)
    return 12.0 + amp / 2 * shape + 0.005 * torch.randn(n, generator=g)


def example_inputs():
    return (_curve(64, 0.6, 12.0, 0.4, 1),)


def dynamic_shapes():
    return ({0: torch.export.Dim("epochs", min=2, max=400)},)


def verify_inputs():
    return [
        # example: moderate amplitude, 12-day period, negative skew -> Cepheid-like (2)
        example_inputs(),
        # min size -> too few points, early return
        (torch.tensor([12.0, 12.1]),),
        # flat star -> amp < 0.1 (0)
        (_curve(40, 0.02, 7.0, 0.0, 2),),
        # max size: big amplitude, long period -> Mira (3)
        (_curve(400, 3.0, 90.0, 0.0, 3),),
        # short period pulsator -> (1)
        (_curve(50, 0.5, 3.0, 0.4, 4),),
        # period >= 5 but positive skew -> not (skew < 0) -> (1)
        (_curve(60, 0.5, 8.0, -0.4, 5),),
    ]
