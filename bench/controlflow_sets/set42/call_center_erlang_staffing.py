"""Contact-centre workforce planning: forecast tomorrow's hourly call volume and
size the agent roster for each 4-hour shift with the Erlang-C queueing formula.

The forecaster is a GRU over the last D days of 24 hourly volumes. For each shift
the offered load (Erlangs) is computed; shifts with almost no calls get the
minimum skeleton crew, otherwise agents are added one at a time until the
predicted service level (share of calls answered within 20 s) meets the target,
then the head count is grossed up for shrinkage (breaks, training, absence).

Kind: T. Constructs: 1, 2, 4, 5, 6, 7, 9.
"""
import math

import torch
from torch import nn
from torch.export import Dim

HOURS = 24
SHIFTS = 6


def erlang_c(agents, load):
    """Probability that an arriving call has to wait (agents > load)."""
    term = torch.ones_like(load)
    total = torch.zeros_like(load)
    for k in range(agents):
        total = total + term
        term = term * load / (k + 1)
    # term is now load**agents / agents!
    top = term * agents / (agents - load)
    return top / (total + top)


def service_level(agents, load, aht_s, answer_within_s):
    if agents <= load:
        return torch.zeros_like(load)  # unstable queue
    p_wait = erlang_c(agents, load)
    return 1.0 - p_wait * torch.exp(-(agents - load) * answer_within_s / aht_s)


class StaffingPlanner(nn.Module):
    def __init__(self, hidden=32, aht_s=300.0, target_sl=0.8, answer_within_s=20.0, min_calls=1.5,
                 skeleton_crew=2, shrinkage_pct=30):
        super().__init__()
        self.encoder = nn.GRU(HOURS, hidden, batch_first=True)
        self.head = nn.Linear(hidden, HOURS)
        self.aht_s = aht_s
        self.target_sl = target_sl
        self.answer_within_s = answer_within_s
        self.min_calls = min_calls
        self.skeleton_crew = skeleton_crew
        self.shrinkage_pct = shrinkage_pct

    def forecast(self, history):
        level = history.mean(dim=0)  # average daily profile
        _, h = self.encoder(torch.log1p(history).unsqueeze(0))
        return level * torch.exp(0.1 * torch.tanh(self.head(h[-1, 0])))

    def forward(self, history):
        calls = self.forecast(history)
        per_shift = calls.view(SHIFTS, HOURS // SHIFTS).mean(dim=1)  # mean calls per hour in each shift
        roster = []
        for shift in range(SHIFTS):
            if per_shift[shift] < self.min_calls:
                roster.append(self.skeleton_crew)
                continue
            load = per_shift[shift] * self.aht_s / 3600.0
            agents = max(1, int(load.item()))
            while service_level(agents, load, self.aht_s, self.answer_within_s) < self.target_sl:
                agents += 1
            roster.append(-(-agents * 100 // (100 - self.shrinkage_pct)))  # ceil in integer arithmetic
        return per_shift, torch.tensor(roster, dtype=torch.long)


def model():
    torch.manual_seed(4208)
    return StaffingPlanner().eval()


def _history(days, peak, seed, night=1.0):
    g = torch.Generator().manual_seed(seed)
    hours = torch.arange(HOURS, dtype=torch.float32)
    profile = night + peak * torch.exp(-((hours - 11.3) / 3.1) ** 2) + 0.6 * peak * torch.exp(-((hours - 16.7) / 2.3) ** 2)
    weekly = 1.0 + 0.1 * torch.sin(torch.arange(days, dtype=torch.float32) * 2 * math.pi / 7).view(-1, 1)
    return (profile * weekly * (1.0 + 0.03 * torch.randn(days, HOURS, generator=g)),)


def example_inputs():
    return _history(28, 180.0, seed=0)


def dynamic_shapes():
    return ({0: Dim("days", min=2, max=90)},)


def verify_inputs():
    return [
        example_inputs(),                      # quiet nights (skeleton crew), busy day needing many extra agents
        _history(7, 40.0, seed=1, night=8.0),  # low volume all day: no night shortcut, few agents added
        _history(3, 600.0, seed=2),            # very busy, short history
        _history(5, 26.0, seed=3, night=2.0),  # ~2 calls/h at night: one agent already meets the target
    ]
