"""Weighted Kaplan-Meier survival curve with Greenwood standard errors,
truncated when the weighted risk set gets too small, plus median survival."""
import torch
import torch.nn as nn
from torch.export import Dim


class KaplanMeier(nn.Module):
    def __init__(self, min_at_risk=3.0):
        super().__init__()
        self.min_at_risk = min_at_risk

    def greenwood_term(self, d, n):
        if n - d > 0:
            return d / (n * (n - d))
        return torch.zeros_like(d)

    def forward(self, times, events, weights):
        # times: [N] follow-up days (integer valued), events: [N] 1=death 0=censored,
        # weights: [N] inverse-probability sampling weights
        event_times = torch.unique(times[events > 0.5])
        surv = torch.ones(())
        gw = torch.zeros(())
        curve, se = [], []
        median = times.max()
        found = False
        for k in range(event_times.shape[0]):
            t = event_times[k]
            at_risk = weights[times >= t].sum()
            if at_risk < self.min_at_risk:
                break
            d = weights[(times == t) & (events > 0.5)].sum()
            surv = surv * (1.0 - d / at_risk)
            gw = gw + self.greenwood_term(d, at_risk)
            curve.append(torch.stack([t, surv]))
            se.append(surv * torch.sqrt(gw))
            if not found and surv < 0.5:
                median = t
                found = True
        if len(curve) == 0:
            return torch.tensor([[0.0, 1.0]]), torch.zeros(1), median
        return torch.stack(curve), torch.stack(se), median


def model():
    torch.manual_seed(4917)
    return KaplanMeier().eval()


def _cohort(N, seed, scale=300.0, censor_p=0.3):
    g = torch.Generator().manual_seed(seed)
    t = (torch.rand(N, generator=g) * scale).floor() + 1.0
    e = (torch.rand(N, generator=g) > censor_p).float()
    w = 0.5 + torch.rand(N, generator=g)
    return t, e, w


def example_inputs():
    # ordinary cohort: median reached, tail truncated by the risk-set rule
    return _cohort(50, 171)


def dynamic_shapes():
    n = Dim("patients", min=2, max=512)
    return ({0: n}, {0: n}, {0: n})


def verify_inputs():
    return [
        example_inputs(),
        _cohort(30, 172, censor_p=0.9),        # heavy censoring: median never reached
        _cohort(512, 173, scale=40.0),         # large cohort, tied event days
        (torch.tensor([5.0, 9.0]), torch.tensor([1.0, 1.0]), torch.tensor([0.9, 0.7])),  # tiny: first event already below min risk set
        (torch.tensor([3.0, 8.0, 8.0, 12.0]), torch.tensor([0.0, 0.0, 0.0, 0.0]),
         torch.tensor([1.0, 1.0, 1.0, 1.0])),  # no events at all: loop runs 0 times
        (torch.tensor([4.0, 6.0, 7.0, 9.0, 11.0]), torch.tensor([1.0, 1.0, 1.0, 1.0, 1.0]),
         torch.tensor([1.3, 1.2, 1.1, 1.05, 3.4])),  # everyone dies: last step has n == d
    ]
