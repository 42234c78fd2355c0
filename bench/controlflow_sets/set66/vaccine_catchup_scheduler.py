"""Childhood immunisation catch-up planner (clinic EHR add-on).

For every vaccine series in the national schedule table it plans the missing doses:
the first dose is due at the series' minimum age, later doses after the minimum interval
since the previous one. Doses that would fall after the series' maximum age (e.g.
rotavirus) or beyond the planning horizon are not planned. Two live vaccines not given on
the same day must be at least 28 days apart. Ages are whole days.

Kind: X.  Constructs: 1, 2, 3, 4, 5, 6, 7.
"""
import torch
import torch.nn as nn
from torch.export import Dim


def next_due(age, last_dose_age, n_given, min_age_first, interval):
    if n_given == 0:
        return torch.maximum(age, min_age_first)
    return torch.maximum(age, last_dose_age + interval)


def live_spacing(due, last_live):
    gap = due - last_live
    if gap > 0 and gap < 28:
        return last_live + 28
    return due


class CatchUpScheduler(nn.Module):
    def __init__(self, horizon_days=365):
        super().__init__()
        self.horizon_days = horizon_days

    def forward(self, age, given, last_dose_age, series):
        # age: () days, given: (V,) doses received, last_dose_age: (V,) days (-1 if none),
        # series: (V, 5) [doses required, min age first dose, min interval, max age, live 0/1]
        n_vaccines = series.shape[0]
        horizon_end = age + self.horizon_days
        # most recent live vaccine already given (or long ago if none)
        is_live = series[:, 4] == 1
        last_live = torch.where(is_live & (last_dose_age >= 0), last_dose_age,
                                torch.full_like(last_dose_age, -1000)).max()
        appointments = []
        planned_per_vaccine = []
        for v in range(n_vaccines):
            required, min_age, interval, max_age, live = series[v].unbind()
            n = given[v]
            last = last_dose_age[v]
            planned = torch.tensor(0)
            while n < required:
                due = next_due(age, last, n, min_age, interval)
                if live == 1:
                    due = live_spacing(due, last_live)
                if due > max_age or due > horizon_end:
                    break
                appointments.append(torch.stack([torch.tensor(v), n + 1, due]))
                if live == 1:
                    last_live = due
                last = due
                n = n + 1
                planned = planned + 1
            planned_per_vaccine.append(planned)
        if len(appointments) == 0:
            return torch.zeros(0, 3, dtype=torch.long), torch.stack(planned_per_vaccine)
        return torch.stack(appointments), torch.stack(planned_per_vaccine)


def model():
    torch.manual_seed(15)
    return CatchUpScheduler().eval()


# doses, min age first dose, min interval, max age, live
DTAP = [5, 42, 28, 2555, 0]
POLIO = [4, 42, 180, 6570, 0]
ROTA = [3, 42, 28, 240, 1]
MMR = [2, 365, 28, 6570, 1]
VARICELLA = [2, 365, 84, 6570, 1]
HEPB = [3, 0, 28, 6570, 0]


def _child(age, rows):
    series = torch.tensor([r[0] for r in rows])
    given = torch.tensor([r[1] for r in rows])
    last = torch.tensor([r[2] for r in rows])
    return (torch.tensor(age), given, last, series)


def example_inputs():
    # 14-month-old who missed visits since 4 months
    return _child(425, [(DTAP, 2, 122), (POLIO, 2, 122), (ROTA, 2, 122), (HEPB, 2, 60),
                        (MMR, 0, -1), (VARICELLA, 0, -1)])


def dynamic_shapes():
    v = Dim("vaccines", min=2, max=32)
    return (None, {0: v}, {0: v}, {0: v})


def verify_inputs():
    return [
        # several series; rotavirus past its max age (break), MMR and varicella today,
        # later doses after their intervals, multi-dose loops
        example_inputs(),
        # fully vaccinated 6-year-old: every while runs 0 times -> no appointments (early return)
        _child(2200, [(DTAP, 5, 1500), (POLIO, 4, 1500), (MMR, 2, 1500)]),
        # 9-month-old never vaccinated: first doses (n == 0 branch), polio doses beyond the
        # 1-year horizon are cut (break on horizon); MMR first dose due at 365 days
        _child(270, [(DTAP, 0, -1), (POLIO, 0, -1), (HEPB, 0, -1), (MMR, 0, -1)]),
        # 1-year-old had MMR 10 days ago elsewhere: varicella must wait 28 days (live spacing
        # bumps it), second MMR then falls on the same day (gap 0, no bump)
        _child(375, [(VARICELLA, 0, -1), (MMR, 1, 365)]),
    ]
