"""Orienteering e-punch card validation: controls in course order, splits, leg performance."""
import torch
import torch.nn as nn
from torch.export import Dim

SERVICE_CODES = 31      # codes below 31 are clear / check / start boxes
MISPUNCH, OVERTIME, SUSPICIOUS = -1.0, -2.0, -3.0


class LegPaceModel(nn.Module):
    """Expected seconds per leg from leg length and position in the course."""

    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, 8), nn.Softplus(), nn.Linear(8, 1), nn.Softplus())

    def forward(self, leg_km, frac):
        return 240.0 * leg_km * (1.0 + self.net(torch.stack([leg_km, frac], 1)).squeeze(1))


class PunchValidator(nn.Module):
    def __init__(self, time_limit_s=5400.0, long_course=12):
        super().__init__()
        self.time_limit_s = time_limit_s
        self.long_course = long_course
        self.pace = LegPaceModel()

    def forward(self, course, leg_km, punches):
        # course (C,) control codes in order; leg_km (C,); punches (P, 2): code, seconds after start
        n_ctrl = course.shape[0]
        ptr = 0
        split_times = []
        for p in range(punches.shape[0]):
            code, t = punches[p, 0], punches[p, 1]
            if code < SERVICE_CODES:
                continue
            if code == course[ptr]:
                split_times.append(t)
                ptr += 1
                if ptr == n_ctrl:
                    break
        if ptr < n_ctrl:
            # mispunch: disqualified, report how many controls were found in order
            return torch.tensor(MISPUNCH), torch.zeros(n_ctrl), torch.tensor(ptr)
        splits = torch.stack(split_times)
        legs = torch.diff(splits, prepend=torch.zeros(1))
        frac = torch.arange(n_ctrl, dtype=torch.float32) / n_ctrl
        index = legs / self.pace(leg_km, frac)
        if (legs < 5.0).any() and n_ctrl > 3:
            status = torch.tensor(SUSPICIOUS)  # two controls 5 s apart: card handed over?
        elif splits[-1] > self.time_limit_s:
            status = torch.tensor(OVERTIME)
        else:
            status = splits[-1]
        if n_ctrl > self.long_course:
            # long courses: the worst leg is usually a one-off mistake, report it separately
            worst = torch.argmax(index)
            index = torch.cat([index[:worst], index[worst + 1:], index[worst:worst + 1]])
        return status, index, torch.tensor(ptr)


def model():
    torch.manual_seed(6003)
    return PunchValidator().eval()


def _card(n_ctrl, seed, extra=0, drop=None, pace=60.0, fast_leg=None):
    g = torch.Generator().manual_seed(seed)
    course = 31 + torch.randperm(150, generator=g)[:n_ctrl].float()
    leg_km = 0.2 + torch.rand(n_ctrl, generator=g)
    t = (leg_km * pace * 10).cumsum(0)
    if fast_leg is not None:
        t[fast_leg:] -= (t[fast_leg] - t[fast_leg - 1]) - 3.0
    rows = [[float(c), float(s)] for c, s in zip(course, t)]
    if drop is not None:
        rows.pop(drop)
    rows.insert(0, [2.0, 0.0])  # start box
    for k in range(extra):     # wrong controls punched in the forest, and the finish after
        rows.insert(1 + 2 * k, [float(190 + k), float(t[min(2 * k, n_ctrl - 1)] - 1)])
    rows.append([1.0, float(t[-1] + 20)])
    return course, leg_km, torch.tensor(rows)


def example_inputs():
    return _card(8, 1, extra=1)


def dynamic_shapes():
    c, p = Dim("controls", min=3, max=20), Dim("punches", min=3, max=40)
    return ({0: c}, {0: c}, {0: p})


def verify_inputs():
    return [
        _card(8, 1, extra=1),                       # example: valid with a stray punch
        _card(3, 2)[:2] + (_card(3, 2)[2][1:4],),   # min controls and punches, exact card
        _card(20, 3, extra=18, pace=40.0),          # max: long course, overtime, worst-leg reorder
        _card(8, 4, drop=5),                        # missed control 6 -> mispunch
        _card(10, 5, fast_leg=6),                   # 3 s leg -> suspicious
        _card(14, 6, pace=10.0),                    # long course finished in time
    ]
