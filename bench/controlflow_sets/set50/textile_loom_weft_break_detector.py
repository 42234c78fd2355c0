"""Air-jet loom weft monitor, replaying the weft-tension signal pick by pick.

State machine per pick:
  RUN (0)     normal weaving;
  SUSPECT (1) tension low on one pick (could be a slack weft);
  STOP (2)    a second low pick confirms a weft break: the loom stops, the
              weaver repairs it and the machine restarts; the picks while the
              tension is still below the restart level are skipped (WARMUP, 3);
  MAINT (9)   too many stops in the log: the loom is locked out for
              maintenance and the remaining picks are not woven.
Once 8 picks of history exist, a learned model over the last 8 tensions
replaces the fixed low-tension threshold.
Returns per-pick state codes and the number of stops.
"""
import torch
import torch.nn as nn


class WeftMonitor(nn.Module):
    def __init__(self, max_stops=4, history=8):
        super().__init__()
        self.scorer = nn.Linear(history, 1)
        self.history = history
        self.max_stops = max_stops
        self.low_tension = 0.35
        self.restart_level = 0.8

    def is_low(self, tension, t):
        if t < self.history:
            return tension[t] < self.low_tension
        window = tension[t - self.history + 1: t + 1]
        learned = 0.05 * torch.tanh(self.scorer(window - window.mean())).squeeze()
        return tension[t] + learned < self.low_tension

    def forward(self, tension):
        n = tension.shape[0]
        states = []
        stops = 0
        suspect = False
        t = 0
        while t < n:
            if self.is_low(tension, t):
                if suspect:
                    states.append(torch.tensor(2))
                    stops += 1
                    suspect = False
                    t += 1
                    if stops > self.max_stops:
                        break
                    # repair done: skip picks until tension is back
                    while t < n and tension[t] < self.restart_level:
                        states.append(torch.tensor(3))
                        t += 1
                    continue
                suspect = True
                states.append(torch.tensor(1))
            else:
                suspect = False
                states.append(torch.tensor(0))
            t += 1
        codes = torch.stack(states)
        if codes.shape[0] < n:
            # locked out: the rest of the log is not woven
            codes = torch.cat([codes, torch.full((n - codes.shape[0],), 9)])
        return codes, torch.tensor(stops)


def model():
    torch.manual_seed(516)
    return WeftMonitor().eval()


def _log(n, breaks=(), slack=(), seed=0):
    g = torch.Generator().manual_seed(seed)
    tension = 1.0 + 0.05 * torch.randn(n, generator=g)
    for b in breaks:
        tension[b:b + 2] = 0.1                       # two dead picks
        tension[b + 2:b + 5] = 0.6                   # restart ramp
    for s in slack:
        tension[s] = 0.2                             # isolated slack pick
    return (tension,)


def example_inputs():
    return _log(64, breaks=(20,), slack=(40,), seed=1)


def dynamic_shapes():
    return ({0: torch.export.Dim("picks", min=16, max=512)},)


def verify_inputs():
    return [
        example_inputs(),                               # one break + restart warm-up, one slack pick
        _log(16, breaks=(3,), seed=2),                  # break inside the first 8 picks (fixed threshold)
        _log(512, breaks=(50, 120, 200, 300, 400, 480), seed=3),  # 5th stop -> maintenance lock-out
        _log(100, slack=(10, 70), seed=4),              # only isolated slack picks, no stop
    ]
