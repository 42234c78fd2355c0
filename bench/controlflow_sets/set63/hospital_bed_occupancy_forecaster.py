"""Hospital bed-occupancy forecaster used by a bed-management dashboard.

Kind T.  Constructs: 1, 2, 5, 6.
A GRU encodes the daily census history; a GRU cell then rolls the occupancy
forward for `horizon` days (a tensor from the request), stopping as soon as
the surge level is crossed.  The day of the surge is only set when it happens.
"""
import torch
import torch.nn as nn
from torch.export import Dim

DAYS = Dim("days", min=7, max=365)
FEATS = 4  # occupancy fraction, admissions/capacity, discharges/capacity, weekday phase


class BedForecaster(nn.Module):
    def __init__(self, hidden=24):
        super().__init__()
        self.encoder = nn.GRU(FEATS, hidden, batch_first=True)
        self.cell = nn.GRUCell(2, hidden)
        self.out = nn.Linear(hidden, 1)

    def forward(self, history, horizon, surge_level):
        _, h = self.encoder(history.unsqueeze(0))
        h = h[0]
        occ = history[-1, 0:1]
        trend = (history[-7:, 1] - history[-7:, 2]).mean()     # net admissions per day

        preds = [occ]
        for _ in range(int(horizon.item())):
            h = self.cell(torch.cat([occ, trend.reshape(1)]).unsqueeze(0), h)
            occ = occ + trend + 0.005 * torch.tanh(self.out(h)).squeeze(0)
            preds.append(occ)
            if occ > surge_level:
                break

        forecast = torch.cat(preds)
        days_to_surge = torch.full((), -1.0)
        if forecast[-1] > surge_level:
            days_to_surge = torch.tensor(float(len(preds) - 1))
        return forecast, days_to_surge


def model():
    torch.manual_seed(63006)
    return BedForecaster().eval()


def _history(days, seed, start_occ, net_per_day):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(days, dtype=torch.float32)
    adm = 0.10 + 0.004 * torch.randn(days, generator=g)
    dis = adm - net_per_day
    occ = start_occ + net_per_day * (t - days + 1)
    wk = torch.sin(2 * torch.pi * t / 7)
    return torch.stack([occ, adm, dis, wk], dim=1)


def _case(days, seed, start_occ, net, horizon, surge=0.95):
    return (_history(days, seed, start_occ, net), torch.tensor(horizon), torch.tensor(surge))


def example_inputs():
    return _case(60, 1, 0.80, 0.0, 10)


def dynamic_shapes():
    return ({0: DAYS}, None, None)


def verify_inputs():
    return [
        example_inputs(),                   # flat census, 10 days: loop runs fully, no surge
        _case(30, 2, 0.80, 0.035, 14),      # rising 3.5%/day: surge after a few days -> break, day set
        _case(14, 3, 0.70, 0.0, 0),         # horizon 0: loop body never runs, no surge
        _case(7, 4, 0.75, 0.01, 1),         # one-day forecast, no surge
        _case(90, 5, 0.97, 0.0, 0),         # already above surge level with no forecast: day 0
        _case(20, 6, 0.93, 0.04, 1),        # surge on the single forecast day -> break at 1st iteration
    ]
