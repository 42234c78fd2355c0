"""Subcutaneous allergy immunotherapy: next dose from the injection history.

Replays the clinic's build-up protocol over the past visits: advance one step
after a well tolerated injection, repeat after a moderate local reaction, go
back after a large local reaction and three steps after a systemic one, and
step back after long gaps between injections.  Today's gap is applied the
same way.  A small learned model predicts today's local reaction size from
the dose and the recent reaction history.

KIND T.  Constructs: 1 (if/elif/else on tensor comparisons), 2 (step
assigned in some branches only, value from before the if), 3 (and/or/not on
tensor predicates), 5 (for over the dynamic number of visits), 9 (Python int
state, min/max on Python ints, static schedule table).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim

KIND = "T"
CONSTRUCTS = (1, 2, 3, 5, 9)

# build-up schedule, mL of the maintenance vial
SCHEDULE = [0.05, 0.10, 0.15, 0.20, 0.25, 0.30, 0.35, 0.40, 0.45, 0.50]


class ImmunotherapyDoseEscalator(nn.Module):
    def __init__(self, large_local_mm=30.0, moderate_local_mm=20.0):
        super().__init__()
        self.register_buffer("schedule", torch.tensor(SCHEDULE))
        self.large_local_mm = large_local_mm
        self.moderate_local_mm = moderate_local_mm
        self.wheal_model = nn.Sequential(nn.Linear(4, 12), nn.ReLU(), nn.Linear(12, 1))

    def _gap_penalty(self, step, gap_days):
        if gap_days > 28:
            return 0  # restart build-up
        elif gap_days > 14:
            return max(step - 2, 0)
        return step

    def forward(self, wheal_mm, systemic, gap_days, today_gap):
        # wheal_mm: (V,) local reaction per past visit, systemic: (V,) bool,
        # gap_days: (V,) days since the previous injection at each visit, today_gap: ()
        last = len(SCHEDULE) - 1
        step = 0
        for v in range(wheal_mm.shape[0]):
            step = self._gap_penalty(step, gap_days[v])
            if systemic[v]:
                step = max(step - 3, 0)
            elif wheal_mm[v] > self.large_local_mm:
                step = max(step - 1, 0)
            elif wheal_mm[v] > self.moderate_local_mm and not step == last:
                pass  # repeat the same dose
            else:
                step = min(step + 1, last)
        step = self._gap_penalty(step, today_gap)
        recent_systemic = systemic[-3:].any()
        if recent_systemic or wheal_mm[-1] > self.large_local_mm:
            # stay cautious one visit after a bad reaction: never up-titrate today
            step = min(step, max(last - 1, 0))

        dose = self.schedule[step]
        interval_days = torch.tensor(28 if step == last else 7)
        feats = torch.stack([dose / 0.5, wheal_mm[-3:].mean() / 30.0,
                             systemic.float().sum() / wheal_mm.shape[0], today_gap / 28.0])
        expected_wheal = 30.0 * torch.sigmoid(self.wheal_model(feats)).squeeze(0)
        return dose, interval_days, expected_wheal


def model():
    torch.manual_seed(61010)
    return ImmunotherapyDoseEscalator().eval()


def make_history(wheals, systemic=None, gaps=None):
    n = len(wheals)
    w = torch.tensor(wheals)
    s = torch.zeros(n, dtype=torch.bool) if systemic is None else torch.tensor(systemic)
    g = torch.full((n,), 7.0) if gaps is None else torch.tensor(gaps)
    return w, s, g


def example_inputs():
    # six uneventful weekly visits, one moderate reaction (repeat): step 5 -> dose 0.30
    w, s, g = make_history([5.0, 8.0, 12.0, 24.0, 10.0, 6.0])
    return (w, s, g, torch.tensor(7.0))


def dynamic_shapes():
    v = Dim("visits", min=2, max=60)
    return ({0: v}, {0: v}, {0: v}, None)


def verify_inputs():
    long = make_history([4.0] * 13 + [24.0])
    sysr = make_history([5.0, 6.0, 7.0, 8.0, 9.0, 10.0], systemic=[False] * 4 + [True, False])
    big = make_history([5.0, 6.0, 7.0, 35.0], gaps=[7.0, 7.0, 7.0, 7.0])
    gaps = make_history([5.0, 5.0, 5.0, 5.0, 5.0, 5.0, 5.0, 5.0],
                        gaps=[7.0, 7.0, 7.0, 18.0, 7.0, 7.0, 35.0, 7.0])
    return [
        # plain escalation + one moderate local reaction (repeat dose)
        example_inputs(),
        # 13 good visits reach maintenance; the moderate reaction at visit 14 happens at
        # the top step (not step == last is False) -> stays at maintenance, 28-day interval
        (*long, torch.tensor(7.0)),
        # systemic reaction at visit 5: three steps back, then cautious cap today
        (*sysr, torch.tensor(7.0)),
        # large local reaction at the last visit: one step back and cautious cap
        (*big, torch.tensor(10.0)),
        # 18-day gap (two back) and 35-day gap (restart) inside the history,
        # today's gap 20 days: two back again
        (*gaps, torch.tensor(20.0)),
        # today's gap 40 days: restart at step 0 today
        (*make_history([3.0, 4.0, 5.0]), torch.tensor(40.0)),
    ]
