"""Volcano observatory alert-level logic from seismic tremor (RSAM).

rsam[w, s] is the real-time seismic amplitude of station s in 10-minute
window w (0 = station offline).  Each station is normalised by its own
background level, taken from the first windows of the record.  The network
ratio is the median over live stations, adjusted by a small learned tremor
classifier.  Alert levels 0 green, 1 yellow, 2 orange, 3 red, with
hysteresis: escalate after `persist_up` windows above the level's threshold,
de-escalate after `persist_down` windows below its lower threshold; an
extreme ratio jumps several levels at once.  Windows with fewer than two live
stations keep the previous level.
"""
import torch
import torch.nn as nn


def robust_level(x):
    return x.median()


def background(rsam, n_windows):
    levels = []
    for s in range(rsam.shape[1]):
        col = rsam[:n_windows, s]
        live = col[col > 0]
        levels.append(robust_level(live) if live.numel() > 0 else torch.tensor(1.0))
    return torch.stack(levels)


class TremorAlert(nn.Module):
    def __init__(self):
        super().__init__()
        self.classifier = nn.Linear(3, 1)
        self.up = (2.0, 4.0, 8.0)          # escalate from level 0 / 1 / 2
        self.down = (0.0, 1.5, 3.0, 6.0)   # de-escalate from level 1 / 2 / 3
        self.persist_up = 2
        self.persist_down = 4
        self.jump_factor = 4.0

    def network_ratio(self, row, base, live):
        ratios = row[live] / base[live]
        feats = torch.stack([torch.log(robust_level(ratios)), torch.log(ratios.max()),
                             live.float().mean()])
        p_tremor = torch.sigmoid(self.classifier(feats)).squeeze()
        return robust_level(ratios) * (0.8 + 0.4 * p_tremor)

    def forward(self, rsam):
        n_windows = rsam.shape[0]
        base = background(rsam, 6 if n_windows >= 12 else n_windows // 2)

        level, above, below = 0, 0, 0
        levels = []
        for w in range(n_windows):
            row = rsam[w]
            live = row > 0
            if live.sum() < 2:
                levels.append(torch.tensor(level))
                continue
            ratio = self.network_ratio(row, base, live)
            if level < 3 and ratio > self.up[level]:
                above, below = above + 1, 0
                if above >= self.persist_up:
                    level += 1
                    above = 0
                    while level < 3 and ratio > self.jump_factor * self.up[level]:
                        level += 1       # explosive onset: skip levels
            elif level > 0 and ratio < self.down[level]:
                below, above = below + 1, 0
                if below >= self.persist_down:
                    level -= 1
                    below = 0
            else:
                above, below = 0, 0
            levels.append(torch.tensor(level))
        levels = torch.stack(levels)
        return levels, levels.max()


def model():
    torch.manual_seed(519)
    return TremorAlert().eval()


def _record(n, stations, episodes=(), offline=(), seed=0):
    g = torch.Generator().manual_seed(seed)
    base = 50.0 + 100.0 * torch.rand(stations, generator=g)
    factor = torch.ones(n)
    for start, stop, mult in episodes:
        factor[start:stop] = mult
    rsam = base * factor.unsqueeze(1) * (1.0 + 0.1 * torch.rand(n, stations, generator=g))
    for w, s in offline:
        rsam[w, s] = 0.0
    return (rsam,)


def example_inputs():
    return _record(60, 4, episodes=((20, 35, 3.0), (35, 45, 6.0)), seed=1)


def dynamic_shapes():
    return ({0: torch.export.Dim("windows", min=6, max=300),
             1: torch.export.Dim("stations", min=3, max=8)},)


def verify_inputs():
    outage = [(w, s) for w in (10, 11) for s in range(1, 3)]
    return [
        example_inputs(),                                     # green -> yellow -> orange -> back down
        _record(6, 3, offline=((4, 0), (4, 1)), seed=2),      # short record, one window with <2 live stations
        _record(300, 8, episodes=((50, 60, 50.0), (60, 200, 1.0)), seed=3),  # explosive onset jumps to red, then calms
        _record(40, 3, offline=[(0, 2)] + outage, seed=4),    # quiet record with a station outage
    ]
