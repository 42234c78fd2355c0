"""Multi-criteria residential smoke alarm with a cooking-nuisance filter.

Each tick gives smoke obscuration (%/ft), CO (ppm), temperature (C) and
relative humidity (%).  Smoke together with a fast temperature rise, or high
CO, always alarms.  Smoke alone is first checked by a small learned classifier
(plus a humidity prior: steam from showers / cooking is humid) that suppresses
nuisance alarms.  The alarm latches until the smoke clears.
"""
import torch
import torch.nn as nn


class SmokeAlarmFilter(nn.Module):
    def __init__(self, window=5):
        super().__init__()
        self.window = window
        self.nuisance_net = nn.Sequential(nn.Linear(8, 16), nn.Tanh(), nn.Linear(16, 1))
        self.register_buffer("scale", torch.tensor([5.0, 100.0, 50.0, 100.0]))

    def nuisance_prob(self, window):
        w = window / self.scale
        feats = torch.cat([w.mean(0), w.max(0).values - w.min(0).values])
        logit = self.nuisance_net(feats).squeeze(-1) + 0.3 * (window[:, 3].mean() - 70.0)
        return torch.sigmoid(logit)

    def forward(self, readings):
        alarm = False
        states = []
        for t in range(readings.shape[0]):
            smoke, co, temp = readings[t, 0], readings[t, 1], readings[t, 2]
            start = max(0, t - self.window + 1)
            rate_of_rise = temp - readings[start, 2]
            if (smoke > 4.0 and rate_of_rise > 6.0) or co > 70.0:
                alarm = True
            elif smoke > 2.0 and not alarm:
                if self.nuisance_prob(readings[start:t + 1]) < 0.5:
                    alarm = True
            elif smoke < 1.0 and alarm:
                alarm = False
            states.append(torch.tensor(1.0) if alarm else torch.tensor(0.0))
        states = torch.stack(states)
        return states, states.sum()


def model():
    torch.manual_seed(606)
    return SmokeAlarmFilter().eval()


def _trace(smoke, co, temp, rh):
    return torch.tensor([smoke, co, temp, rh], dtype=torch.float32).T.contiguous()


def example_inputs():
    # dry kitchen fire: smoke builds without much heat first (filter says real), then clears
    return (_trace([0.2, 0.5, 2.5, 3.5, 3.0, 2.6, 0.5, 0.3],
                   [0.0, 2.0, 5.0, 8.0, 8.0, 6.0, 3.0, 1.0],
                   [21.0, 21.0, 22.0, 23.0, 23.0, 22.0, 22.0, 21.0],
                   [40.0, 40.0, 38.0, 37.0, 37.0, 38.0, 40.0, 40.0]),)


def dynamic_shapes():
    return ({0: torch.export.Dim("ticks", min=2, max=300)},)


def verify_inputs():
    return [
        # example: smoke-only, low humidity -> classifier alarms; latched tick with smoke
        # still > 2 (no branch taken); then smoke clears -> alarm reset
        example_inputs(),
        # shower steam: smoke-ish reading but very humid -> suppressed (nuisance), never alarms
        (_trace([0.3, 2.4, 2.8, 2.2, 0.4], [0.0] * 5, [24.0, 25.0, 26.0, 25.0, 24.0],
                [70.0, 95.0, 97.0, 96.0, 80.0]),),
        # flaming fire: heavy smoke with fast temperature rise (and-clause) -> alarm, stays latched
        (_trace([0.5, 3.0, 5.0, 6.0, 7.0, 7.5], [1.0, 3.0, 10.0, 20.0, 30.0, 40.0],
                [22.0, 24.0, 29.0, 34.0, 41.0, 48.0], [40.0] * 6),),
        # heavy smoke, no heat rise (and-clause false); CO leak later (or-clause) -> alarm
        (_trace([4.5, 4.8, 0.5, 0.2, 0.1], [5.0, 5.0, 20.0, 90.0, 120.0],
                [22.0, 22.0, 22.0, 22.0, 22.0], [99.0, 99.0, 50.0, 50.0, 50.0]),),
        # two quiet ticks
        (_trace([0.1, 0.1], [0.0, 0.0], [20.0, 20.0], [45.0, 45.0]),),
    ]
