"""Cycling route planner: find the climbs on an elevation profile and categorise them.

The elevation profile of a GPX route (distance km, elevation m) is smoothed
(only when densely sampled), scanned for climbs (a climb starts at an uphill
step, is abandoned if the road falls back below its foot, and ends once the
road has dropped 40 m below its highest point) and
every climb longer than 0.5 km is categorised from gain x average gradient
(HC, 1, 2, 3, 4 or uncategorised), as the route planner shows them on the
map. A small GRU over the gradient profile gives an overall route
difficulty.

Outputs: per-point climb category (0 = none/uncat, 1 = cat 4 ... 5 = HC),
count of climbs per category (uncat, 4, 3, 2, 1, HC) and the difficulty.

Constructs: 1, 2, 3, 5, 6, 7, 8
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim


class ClimbCategorizer(nn.Module):
    def __init__(self):
        super().__init__()
        self.end_drop_m = 40.0
        self.min_len_km = 0.5
        self.gru = nn.GRU(2, 16, batch_first=True)
        self.head = nn.Linear(16, 1)

    def smooth(self, elev):
        if elev.shape[0] < 50:
            return elev  # sparse profile: smoothing would flatten real climbs
        return F.avg_pool1d(elev.view(1, 1, -1), 5, stride=1, padding=2, count_include_pad=False).view(-1)

    def find_climbs(self, elev):
        climbs = []
        in_climb = False
        start, top = 0, 0
        for i in range(1, elev.shape[0]):
            if not in_climb:
                if elev[i] > elev[i - 1]:
                    in_climb = True
                    start, top = i - 1, i
                continue
            if elev[i] >= elev[top]:
                top = i
            elif elev[top] - elev[i] > self.end_drop_m:
                climbs.append((start, top))
                in_climb = False
            elif elev[i] <= elev[start]:
                in_climb = False  # false start: back below the foot before gaining 40 m
        if in_climb:
            climbs.append((start, top))  # route finishes uphill
        return climbs

    def category(self, length_km, gain_m):
        grade = gain_m / (length_km * 10.0)  # percent
        score = gain_m * grade
        if score >= 8000:
            return 5
        elif score >= 5000:
            return 4
        elif score >= 2500:
            return 3
        elif score >= 1200:
            return 2
        elif score >= 500:
            return 1
        return 0

    def forward(self, dist_km, elev):
        n = elev.shape[0]
        elev_s = self.smooth(elev)
        cat_map = torch.zeros(n)
        counts = torch.zeros(6)
        for start, top in self.find_climbs(elev_s):
            length = dist_km[top] - dist_km[start]
            if length < self.min_len_km:
                continue  # a bump, not a climb
            gain = elev_s[top] - elev_s[start]
            c = self.category(length, gain)
            counts[c] += 1
            cat_map[start:top + 1] = torch.clamp(cat_map[start:top + 1], min=float(c))

        grade = torch.diff(elev_s, prepend=elev_s[:1]) / (torch.diff(dist_km, prepend=dist_km[:1] - 1.0) * 10.0)
        seq = torch.stack([grade / 10.0, (elev_s - elev_s.mean()) / 500.0], dim=1).unsqueeze(0)
        h, _ = self.gru(seq)
        return cat_map, counts, torch.sigmoid(self.head(h[0, -1]))


def model():
    torch.manual_seed(67)
    return ClimbCategorizer().eval()


def _route(segments, n, seed, start_elev=200.0, noise=0.4):
    """segments: (length_km, grade_percent); the profile is sampled at n evenly spaced points"""
    knots_d, knots_e = [0.0], [start_elev]
    for length, grade in segments:
        knots_d.append(knots_d[-1] + length)
        knots_e.append(knots_e[-1] + length * grade * 10.0)
    d = torch.linspace(0.0, knots_d[-1], n, dtype=torch.float64)
    kd = torch.tensor(knots_d, dtype=torch.float64)
    ke = torch.tensor(knots_e, dtype=torch.float64)
    j = torch.searchsorted(kd, d).clamp(1, len(knots_d) - 1)
    e = ke[j - 1] + (ke[j] - ke[j - 1]) * (d - kd[j - 1]) / (kd[j] - kd[j - 1])
    g = torch.Generator().manual_seed(seed)
    e = e + noise * torch.randn(n, generator=g, dtype=torch.float64)
    return d.float(), e.float()


def example_inputs():
    # 120 points (smoothed): a cat-3 climb from the start, a long descent, a cat-1 climb, descent to the finish
    return _route([(5.0, 6.0), (6.0, -5.0), (10.0, 8.0), (6.0, -6.0)], 120, 1)


def dynamic_shapes():
    N = Dim("points", min=8, max=600)
    return ({0: N}, {0: N})


def verify_inputs():
    return [
        example_inputs(),                                                                    # cat 3 + cat 1
        _route([(0.3, 20.0), (1.0, -7.0), (3.0, 5.0)], 30, 2),                              # 30 points (no smoothing): 0.3 km ramp skipped; finishes uphill (cat 4)
        _route([(15.0, 8.5), (8.0, -6.0), (6.0, 7.5), (4.0, -5.0), (2.0, 3.0), (2.0, -3.0)], 200, 3),  # HC, cat 2, uncategorised
        _route([(5.0, -0.3)], 40, 4),                                                        # gently downhill, noisy: false starts only
    ]
