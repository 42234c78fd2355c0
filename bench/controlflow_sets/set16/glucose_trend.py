"""CGM glucose trend and 30-minute forecast for a phone companion app.

Readings every 5 min in mg/dL, values < 20 (0 from the app) = sensor gap. Gaps are skipped, too few valid
readings return "no trend"; a smoothing loop iterates to convergence (capped);
the trend arrow comes from the smoothed slope; a GRU over the valid readings
forecasts 6 steps. Hypo risk short-circuits the forecast adjustment in a helper.
"""
import torch
from torch import nn

HORIZON = 6
MAX_SMOOTH = 20


def smooth(v, lam=0.5, tol=0.05):
    """Jacobi iterations of a first-difference (Whittaker) smoother."""
    s = v
    it = 0
    delta = torch.full((), 1e9)
    while delta > tol and it < MAX_SMOOTH:
        inner = (v[1:-1] + lam * (s[:-2] + s[2:])) / (1 + 2 * lam)
        first = (v[:1] + lam * s[1:2]) / (1 + lam)
        last = (v[-1:] + lam * s[-2:-1]) / (1 + lam)
        nxt = torch.cat([first, inner, last])
        delta = (nxt - s).abs().amax()
        s = nxt
        it += 1
    return s


def trend_arrow(slope):  # mg/dL per 5 min -> -2..2
    if slope > 3.0:
        return torch.tensor(2)
    elif slope > 1.0:
        return torch.tensor(1)
    elif slope < -3.0:
        return torch.tensor(-2)
    elif slope < -1.0:
        return torch.tensor(-1)
    return torch.tensor(0)


def adjust_for_hypo(fc, last):
    if last < 70.0:
        return torch.minimum(fc, last.expand_as(fc))  # do not predict recovery
    if (fc < 70.0).any() and not (last > 180.0):
        return fc - 5.0  # conservative: warn earlier
    return fc


class GlucoseTrend(nn.Module):
    def __init__(self):
        super().__init__()
        self.cell = nn.GRUCell(2, 16)
        self.head = nn.Linear(16, HORIZON)

    def forward(self, cgm):  # (T,)
        vals, gaps = [], []
        gap = torch.zeros(())
        for t in range(cgm.shape[0]):
            if cgm[t] < 20.0:
                gap = gap + 1
                continue
            vals.append(cgm[t])
            gaps.append(gap)
            gap = torch.zeros(())
        n_valid = (cgm >= 20.0).sum()
        if n_valid.item() < 3:
            return torch.tensor(0), torch.zeros(HORIZON)
        v = torch.stack(vals)
        s = smooth(v)
        arrow = trend_arrow(s[-1] - s[-2])
        h = torch.zeros(1, 16)
        for k in range(v.shape[0]):
            x = torch.stack([(v[k] - 120.0) / 40.0, gaps[k] / 3.0]).unsqueeze(0)
            h = self.cell(x, h)
        fc = v[-1] + (s[-1] - s[-2]) * torch.arange(1, HORIZON + 1, dtype=torch.float32) \
            + 5.0 * torch.tanh(self.head(h)[0])
        return arrow, adjust_for_hypo(fc, v[-1])


def model():
    torch.manual_seed(0)
    return GlucoseTrend().eval()


def _cgm(vals):
    return (torch.tensor(vals, dtype=torch.float32),)


def example_inputs():
    return _cgm([110, 112, 0, 115, 118, 120, 121, 123])


def dynamic_shapes():
    return ({0: torch.export.Dim("readings", min=2, max=288)},)


def verify_inputs():
    return [
        _cgm([100, 0, 0, 101]),                               # too few -> early return
        _cgm([150, 140, 128, 117, 104, 92, 80, 72, 66]),      # falling fast, hypo
        _cgm([98, 95, 0, 91, 88, 85, 82, 79, 76, 73]),        # falling toward 70
        _cgm([150, 160, 0, 0, 175, 190, 210]),                # rising fast
        _cgm([120, 120.5, 121, 121.5, 122, 123, 124, 126, 128]),  # rising slowly
        _cgm([200, 199, 200, 199, 200]),                      # flat
        _cgm([260, 240, 220, 205, 190]),                      # falling fast, still high
    ]
