"""Team sports science: acute:chronic workload ratio from daily session loads (sRPE x minutes)
plus recent sleep, with a recommended load for tomorrow.

Kind T. Constructs: 1 2 3 5 7 8
"""
import torch
import torch.nn as nn


class WorkloadMonitor(nn.Module):
    def __init__(self, acute_days=7, chronic_days=28):
        super().__init__()
        self.acute_days = acute_days
        self.chronic_days = chronic_days
        # small learned correction of the target from the last week's load profile
        self.adjust = nn.Linear(7, 1)

    def ewma(self, loads, span):
        alpha = 2.0 / (span + 1.0)
        s = loads[0]
        for i in range(1, loads.shape[0]):
            s = alpha * loads[i] + (1 - alpha) * s
        return s

    def forward(self, loads, sleep_hours):
        loads = loads.clamp(min=0.0, max=3000.0)
        if loads.shape[0] < self.chronic_days:
            # new athlete: not enough history, use whatever we have
            chronic_span = loads.shape[0]
        else:
            chronic_span = self.chronic_days
        acute = self.ewma(loads, self.acute_days)
        chronic = self.ewma(loads, chronic_span)
        acwr = acute / chronic.clamp(min=50.0)
        sleep_debt = (8.0 - sleep_hours[-7:]).clamp(min=0.0).sum()

        if acwr > 1.5 or (acwr > 1.3 and sleep_debt > 5.0):
            target = 0.8 * chronic          # spike: injury risk zone
        elif acwr < 0.8:
            target = 1.1 * chronic          # detraining, build back up
        else:
            target = acute
        week = loads[-7:] / 1000.0
        target = target * (1.0 + 0.05 * torch.tanh(self.adjust(week))).squeeze()
        return torch.stack([acute, chronic, acwr, sleep_debt]), target


def model():
    torch.manual_seed(5)
    return WorkloadMonitor().eval()


def _make(days, base, recent, n_recent, sleep, seed):
    g = torch.Generator().manual_seed(seed)
    loads = base + 40.0 * torch.randn(days, generator=g)
    loads[-n_recent:] = recent + 40.0 * torch.randn(n_recent, generator=g)
    sleep_h = sleep + 0.2 * torch.randn(days, generator=g)
    return loads, sleep_h


def example_inputs():
    return _make(42, 500.0, 520.0, 7, 7.8, 0)


def dynamic_shapes():
    d = torch.export.Dim("days", min=7, max=120)
    return ({0: d}, {0: d})


def verify_inputs():
    return [
        example_inputs(),                 # steady training, long history: normal zone (else)
        _make(14, 500.0, 150.0, 7, 7.5, 1),   # short history (<28 days), light last week: acwr < 0.8
        _make(60, 300.0, 1500.0, 3, 7.5, 2),  # 3-day spike after a light block: acwr > 1.5
        _make(60, 500.0, 1100.0, 3, 6.0, 3),  # moderate rise (1.3..1.5) with poor sleep: risk via the `and`
        _make(60, 500.0, 1100.0, 3, 8.2, 4),  # same rise, good sleep: falls through to else
        _make(35, 600.0, 250.0, 7, 7.0, 5),   # taper / illness week with long history: acwr < 0.8
    ]
