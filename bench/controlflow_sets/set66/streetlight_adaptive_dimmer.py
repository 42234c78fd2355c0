"""Adaptive street-light dimming along one road.

Each lamp has a PIR motion counter and an ambient light sensor. A small GRU predicts the
activity expected in the next minutes from the recent motion history; the controller then
picks a dimming level per lamp: off in daylight, full when something moves under the lamp,
60 % when a neighbour saw motion or activity is expected, otherwise the night base level.

Kind: T.  Constructs: 1, 3, 5, 8, 9.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class StreetlightDimmer(nn.Module):
    def __init__(self, daylight_lux=40.0, holiday_mode=False, hidden=8):
        super().__init__()
        self.daylight_lux = daylight_lux
        self.holiday_mode = holiday_mode
        self.traffic = nn.GRU(1, hidden, batch_first=True)
        self.head = nn.Linear(hidden, 1)

    def forward(self, motion, lux):
        # motion: (L, T) integer detections per minute for L lamps, lux: (L,)
        n_lamps = motion.shape[0]
        counts = motion.float()
        _, h = self.traffic(torch.log1p(counts).unsqueeze(-1))
        # learned correction on top of a prior: activity 5..15 minutes ago predicts the next minutes
        earlier = counts[:, -15:-5].mean(dim=1) if counts.shape[1] > 5 else torch.zeros(n_lamps)
        expected = torch.sigmoid(self.head(h[-1]).squeeze(-1) + 2.0 * earlier - 1.0)
        recent = motion[:, -5:].sum(dim=1)
        base = 0.45 if self.holiday_mode else 0.3
        levels = []
        for i in range(n_lamps):
            left = recent[i - 1] if i > 0 else torch.zeros(())
            right = recent[i + 1] if i + 1 < n_lamps else torch.zeros(())
            if lux[i] > self.daylight_lux:
                level = torch.tensor(0.0)
            elif recent[i] > 0:
                level = torch.tensor(1.0)
            elif (left + right > 0) or expected[i] > 0.6:
                level = torch.tensor(0.6)
            else:
                level = torch.tensor(base)
            levels.append(level)
        return torch.stack(levels), expected


def model():
    torch.manual_seed(2)
    return StreetlightDimmer().eval()


def _motion(n_lamps, n_min, active, burst=0.0):
    m = torch.zeros(n_lamps, n_min, dtype=torch.long)
    for lamp, minute in active:
        m[lamp, minute] = 1
    if burst:
        m[:, -12:-6] += burst
    return m


def example_inputs():
    # lamp 2 sees a pedestrian now, lamps 1 and 3 are neighbours, lamp 0 is dark and quiet,
    # lamp 5 is under a bright shop window
    motion = _motion(6, 30, [(2, 28), (2, 29)])
    lux = torch.tensor([3.0, 2.5, 4.0, 3.0, 2.0, 80.0])
    return (motion, lux)


def dynamic_shapes():
    lamps = Dim("lamps", min=2, max=64)
    return ({0: lamps, 1: Dim("minutes", min=2, max=120)}, {0: lamps})


def verify_inputs():
    return [
        # full / neighbour-60% / base / daylight branches in one road
        example_inputs(),
        # dusk: every lamp above the daylight threshold -> all off
        (torch.zeros(3, 10, dtype=torch.long), torch.tensor([120.0, 95.0, 60.0])),
        # busy 6-12 minutes ago, quiet now: activity expected -> 60 % via the `or`
        (_motion(4, 40, [], burst=3), torch.tensor([1.0, 1.0, 1.0, 1.0])),
        # two lamps, 3-minute history (short-history side of the size ternary), motion at both: full
        (_motion(2, 3, [(0, 2), (1, 1)]), torch.tensor([0.5, 0.5])),
    ]
