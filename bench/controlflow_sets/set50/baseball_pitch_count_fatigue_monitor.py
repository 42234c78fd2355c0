"""In-game pitcher fatigue monitor for the bullpen coach.

Compares the pitcher's fastball velocity and spin over the last few pitches
with the baseline set early in the outing.  A small learned model turns the
drops plus the pitch count into a fatigue score.  Decision codes:
0 stay in, 1 warm up the bullpen, 2 pull the pitcher.
"""
import torch
import torch.nn as nn


class PitcherFatigueMonitor(nn.Module):
    def __init__(self, pitch_limit=110, baseline_pitches=15, recent_pitches=5):
        super().__init__()
        self.fatigue_net = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1))
        self.pitch_limit = pitch_limit
        self.baseline_pitches = baseline_pitches
        self.recent_pitches = recent_pitches

    def forward(self, velo, spin):
        n = velo.shape[0]
        if n >= self.baseline_pitches:
            base_v = velo[: self.baseline_pitches].mean()
            base_s = spin[: self.baseline_pitches].mean()
        else:
            base_v, base_s = velo.max(), spin.max()

        recent_v = velo[-self.recent_pitches:].mean()
        recent_s = spin[-self.recent_pitches:].mean()
        velo_drop = base_v - recent_v
        spin_drop = base_s - recent_s

        feats = torch.stack([velo_drop / 3.0, spin_drop / 150.0, torch.tensor(n / 100.0)])
        fatigue = torch.sigmoid(self.fatigue_net(feats)).squeeze()

        if n > self.pitch_limit:
            return torch.tensor(2), fatigue          # hard pitch-count limit
        if velo_drop > 2.0 and spin_drop > 100.0:
            decision = torch.tensor(2)
        elif velo_drop > 1.0 or fatigue > 0.8:
            decision = torch.tensor(1)
        else:
            decision = torch.tensor(0)
        return decision, fatigue


def model():
    torch.manual_seed(506)
    return PitcherFatigueMonitor().eval()


def _outing(n, velo_fade=0.0, spin_fade=0.0, seed=0):
    g = torch.Generator().manual_seed(seed)
    frac = torch.linspace(0.0, 1.0, n)
    velo = 95.0 - velo_fade * frac + 0.3 * torch.randn(n, generator=g)
    spin = 2350.0 - spin_fade * frac + 10.0 * torch.randn(n, generator=g)
    return velo, spin


def example_inputs():
    return _outing(60, velo_fade=1.0, seed=1)


def dynamic_shapes():
    pitches = torch.export.Dim("pitches", min=2, max=150)
    return ({0: pitches}, {0: pitches})


def verify_inputs():
    return [
        example_inputs(),                                   # mild fade -> stay in
        _outing(2, seed=2),                                 # first batter, short baseline -> stay in
        _outing(150, seed=3),                               # over the pitch limit -> pull (early return)
        _outing(95, velo_fade=3.5, spin_fade=200.0, seed=4),  # velocity + spin collapse -> pull
        _outing(80, velo_fade=2.0, seed=5),                 # velocity only -> warm up bullpen
    ]
