"""Dairy cow heat (estrus) detection from a neck-collar sensor.

The collar reports hourly activity counts and daily rumination minutes. For
each day, activity is compared with the cow's own baseline over the previous
week; a heat alert needs an activity surge together with a rumination drop.
Days where the rumination sensor was offline are skipped. Each alert is scored
by a small network (probability the heat is real / insemination window).

Kind T. Constructs: 1 (if on tensor comparisons), 2 (early return when no alert
was raised), 3 (`and` of tensor predicates), 5 (for over the dynamic number of
days, list.append + torch.stack), 6 (continue on missing sensor data).
"""
import torch
import torch.nn as nn


class EstrusDetector(nn.Module):
    def __init__(self, hidden=16, surge_ratio=1.8, rumination_drop=0.85, baseline_days=7):
        super().__init__()
        self.surge_ratio = surge_ratio
        self.rumination_drop = rumination_drop
        self.baseline_days = baseline_days
        self.scorer = nn.Sequential(nn.Linear(4, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, activity, rumination):
        # activity: (D, 24) counts per hour; rumination: (D,) minutes per day (0 = sensor offline)
        daily = activity.sum(dim=1)
        alerts = []
        for d in range(1, activity.shape[0]):
            if rumination[d] <= 0:
                continue
            start = max(0, d - self.baseline_days)
            baseline = daily[start:d].mean()
            prev_rum = rumination[start:d]
            rum_baseline = prev_rum[prev_rum > 0].mean()
            ratio = daily[d] / baseline
            if ratio > self.surge_ratio and rumination[d] < self.rumination_drop * rum_baseline:
                night_share = activity[d, :6].sum() / daily[d]
                alerts.append(torch.stack([
                    torch.tensor(float(d)), ratio, rumination[d] / rum_baseline, night_share]))
        if len(alerts) == 0:
            return torch.zeros(0, 4), torch.zeros(0)
        events = torch.stack(alerts)
        feats = torch.cat([events[:, :1] / 30.0, events[:, 1:]], dim=1)
        prob = torch.sigmoid(self.scorer(feats)).squeeze(-1)
        return events, prob


def model():
    torch.manual_seed(3407)
    return EstrusDetector().eval()


def _herd_log(days, seed, heat_days=(), offline_days=()):
    g = torch.Generator().manual_seed(seed)
    activity = 250.0 + 150.0 * torch.rand(days, 24, generator=g)      # ~ 7800 / day
    rumination = 480.0 + 60.0 * torch.rand(days, generator=g)         # 480-540 min
    for d in heat_days:
        activity[d] *= 2.6
        rumination[d] = 330.0
    for d in offline_days:
        rumination[d] = 0.0
    return activity, rumination


def example_inputs():
    return _herd_log(21, 1, heat_days=(12,), offline_days=(5,))


def dynamic_shapes():
    D = torch.export.Dim("days", min=2, max=60)
    return ({0: D}, {0: D})


def verify_inputs():
    act, rum = _herd_log(14, 3, heat_days=(9,))
    act[4] *= 2.4  # activity surge (e.g. moved pasture) without rumination drop -> no alert
    return [
        # one heat on day 12, rumination offline on day 5 (skipped) -> one alert
        example_inputs(),
        # two heats three weeks apart in a 45-day log -> two alerts
        _herd_log(45, 2, heat_days=(10, 31)),
        # surge without rumination drop (and-clause false) plus one real heat
        (act, rum),
        # two quiet days -> no alerts, early return of empty tensors
        _herd_log(2, 4),
        # only the first day has data, day 1 rumination offline -> continue, no alerts
        _herd_log(2, 5, offline_days=(1,)),
    ]
