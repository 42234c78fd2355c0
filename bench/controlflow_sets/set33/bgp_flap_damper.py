"""BGP route-flap damping (RFC 2439 style) replayed over a minute-by-minute log.

events: [P, T] 1.0 where prefix p flapped (withdraw + re-announce) in minute t
(P prefixes and T minutes dynamic).  Each prefix carries a penalty that decays
exponentially, jumps on every flap, and drives a suppressed / usable state
machine with hysteresis.  A prefix suppressed for too long is parked (kept
suppressed for the rest of the window).  A small learned head turns the
per-prefix summary into an instability score.
Returns (suppressed [P, T], penalty [P, T], instability score [P]).
"""
import math

import torch
import torch.nn as nn
from torch.export import Dim


class FlapDamper(nn.Module):
    def __init__(self, half_life_min=15.0, flap_penalty=1000.0, suppress=2000.0, reuse=750.0,
                 max_penalty=6000.0, max_suppress_min=45):
        super().__init__()
        self.decay = math.exp(-math.log(2.0) / half_life_min)
        self.flap_penalty = flap_penalty
        self.suppress = suppress
        self.reuse = reuse
        self.max_penalty = max_penalty
        self.max_suppress_min = max_suppress_min
        self.score = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1))

    def forward(self, events):
        n_prefix, n_min = events.shape
        sup_rows, pen_rows = [], []
        for p in range(n_prefix):
            penalty = torch.zeros(())
            suppressed = False
            suppressed_for = 0
            sup, pen = [], []
            for t in range(n_min):
                penalty = penalty * self.decay
                if events[p, t] > 0.5:
                    penalty = penalty + self.flap_penalty
                    if penalty > self.max_penalty:
                        penalty = torch.full((), self.max_penalty)
                elif not suppressed and penalty < 1.0:
                    sup.append(torch.zeros(()))
                    pen.append(torch.zeros(()))
                    continue  # quiet, fully decayed prefix: nothing to track

                if suppressed and penalty < self.reuse:
                    suppressed = False
                    suppressed_for = 0
                elif not suppressed and penalty > self.suppress:
                    suppressed = True
                if suppressed:
                    suppressed_for += 1
                sup.append(torch.tensor(1.0 if suppressed else 0.0))
                pen.append(penalty)
                if suppressed_for >= self.max_suppress_min:
                    # chronic flapper: park it for the rest of the window
                    rest = n_min - t - 1
                    sup.extend([torch.ones(())] * rest)
                    pen.extend([penalty] * rest)
                    break
            sup_rows.append(torch.stack(sup))
            pen_rows.append(torch.stack(pen))
        sup_all = torch.stack(sup_rows)
        pen_all = torch.stack(pen_rows)
        summary = torch.stack([sup_all.mean(1), pen_all.mean(1) / self.max_penalty, events.mean(1)], dim=1)
        return sup_all, pen_all, torch.sigmoid(self.score(summary)).squeeze(1)


def model():
    torch.manual_seed(23)
    return FlapDamper().eval()


def _log(patterns, minutes):
    rows = []
    for flaps in patterns:
        r = torch.zeros(minutes)
        for t in flaps:
            r[t] = 1.0
        rows.append(r)
    return torch.stack(rows)


def example_inputs():
    # stable prefix, a burst that gets suppressed then reused, a single flap
    return (_log([[], [2, 4, 5, 7], [10]], 60),)


def dynamic_shapes():
    return ({0: Dim("prefixes", min=2, max=64), 1: Dim("minutes", min=2, max=1440)},)


def verify_inputs():
    return [
        example_inputs(),                                        # quiet skip, suppress -> reuse hysteresis, sub-threshold flap
        (_log([list(range(0, 60, 2)), [1, 2, 3, 4, 5, 6, 7, 8]], 60),),  # chronic flapper and an 8-flap burst: penalty
                                                                 # clipped at the max, both suppressed 45 min -> parked (break)
        (_log([[0], [1]], 3),),                                  # 3-minute window: no suppression, no quiet minute for prefix 1
    ]
