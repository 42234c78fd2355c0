"""Lists of lists a converted loop carries: a FIFO per stage (``q[k].pop(0)`` then ``q[k].append(v)``),
and a stack per lane popped from its end, inside a loop over a dynamic length; a copy of a constant
list of (altitude, code) pairs consumed from its front by a tensor `while` in such a loop, which
appends to a list a branch after it appends to too."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded

WEEKS = torch.export.Dim("weeks", min=2, max=40)


class StageQueues(nn.Module):
    """Orders travel through stages with a two-week delay; a stage short of stock backlogs."""

    def __init__(self):
        super().__init__()
        self.gain = nn.ModuleList([nn.Linear(2, 1) for _ in range(3)])

    def forward(self, demand):
        n = len(self.gain)
        stock = [torch.tensor(8.0) for _ in range(n)]
        queues = [[torch.tensor(2.0)] * 2 for _ in range(n)]
        served = []
        for week in range(demand.shape[0]):
            need = demand[week]
            for k, gain in enumerate(self.gain):
                arrived = queues[k].pop(0)
                stock[k] = stock[k] + arrived
                if stock[k] >= need:
                    sent = need
                else:
                    sent = stock[k]
                stock[k] = stock[k] - sent
                order = torch.relu(gain(torch.stack([stock[k], need]))).squeeze(0) + need
                if k > 0:
                    queues[k - 1].append(sent)
                need = order
            queues[n - 1].append(need)
            served.append(torch.stack(stock))
        return torch.stack(served), torch.stack([q[-1] for q in queues])


class LaneStacks(nn.Module):
    """Two lanes of plates, each a stack: every step puts the item's weight on each lane's top plate
    when it is heavy, and otherwise takes the top plate off (``pop()``) and counts it."""

    def forward(self, items):
        lanes = [[torch.tensor(0.0), torch.tensor(0.0)], [torch.tensor(1.0), torch.tensor(0.0)]]
        total = torch.tensor(0.0)
        for i in range(items.shape[0]):
            for lane in range(len(lanes)):
                top = lanes[lane].pop()
                if items[i, lane] > 1.0:
                    top = top + items[i, lane]
                else:
                    total = total + top
                    top = top * 0
                lanes[lane].append(top)
        return total, torch.stack([lanes[0][-1], lanes[1][-1]])


class EventGroups(nn.Module):
    """Steep samples (a data-dependent count) are grouped into events ``[start, end]``: a sample
    close to the last event moves that event's end (``groups[-1][1] = i``), else starts a new one."""

    def forward(self, trace):
        steep = (trace[1:] - trace[:-1]).abs() > 0.5
        n = int(steep.sum().item())
        cand = steep.nonzero().squeeze(1)
        groups = []
        for k in range(n):
            i = int(cand[k])
            if groups and i - groups[-1][1] <= 2:
                groups[-1][1] = i
                continue
            groups.append([i, i])
        rises = []
        for a, b in groups:
            rises.append(trace[b + 1] - trace[a])
        return torch.stack(rises) if rises else trace.new_zeros(0)


CALLOUTS = [(2500.0, 1), (1000.0, 2), (500.0, 3), (100.0, 4), (50.0, 5)]


class AltitudeCallouts(nn.Module):
    """``pending = list(CALLOUTS)``, ``while pending and alt < pending[0][0]: ...; pending.pop(0)``."""

    def forward(self, alts):
        pending = list(CALLOUTS)
        events = []
        for t in range(alts.shape[0]):
            alt = alts[t]
            while pending and alt < pending[0][0]:
                events.append(torch.tensor([float(t), float(pending[0][1])]))
                pending.pop(0)
        if not events:
            return torch.zeros(0, 2), torch.tensor(len(pending))
        return torch.stack(events), torch.tensor(len(pending))


class CalloutsAndAlerts(nn.Module):
    """As AltitudeCallouts, with an alert appended to the same list in a branch after the `while`."""

    def forward(self, flight):
        pending = list(CALLOUTS)
        events = []
        for t in range(flight.shape[0]):
            alt, vs = flight[t].unbind()
            while pending and alt < pending[0][0]:
                events.append(torch.tensor([float(t), float(pending[0][1])]))
                pending.pop(0)
            if -vs > 1500.0 + alt:
                events.append(torch.tensor([float(t), 9.0]))
        if not events:
            return torch.zeros(0, 2)
        return torch.stack(events)


CASES = [
    Case(
        "queue_per_stage_popped_and_appended_in_a_loop",
        seeded(StageQueues),
        (torch.tensor([4.0, 4.0, 8.0, 8.0, 8.0, 3.0]),),
        [
            (torch.tensor([1.0, 1.0]),),  # every stage has stock: no backlog
            (torch.full((12,), 30.0),),  # a surge: stages run out (the else branch)
            (torch.linspace(0.0, 20.0, 40),),  # max length
        ],
        ({0: WEEKS},),
        constructs=("for->scan",),
    ),
    Case(
        "stack_per_lane_popped_from_its_end_in_a_loop",
        seeded(LaneStacks),
        (torch.tensor([[2.0, 0.5], [3.0, 1.5], [0.2, 0.1]]),),
        [
            (torch.tensor([[0.5, 0.5], [0.2, 0.3]]),),  # light items only: every top is taken off
            (
                torch.tensor([[2.0, 3.0], [4.0, 0.1], [5.0, 6.0], [0.3, 2.5]]),
            ),  # heavy and light on both lanes
        ],
        ({0: WEEKS},),
        constructs=("for->while_loop",),
    ),
    Case(
        "entry_of_a_list_entry_stored_in_a_loop",
        seeded(EventGroups),
        (torch.tensor([0.0, 1.0, 2.0, 2.0, 3.0, 3.0, 3.0, 3.0, 3.0, 4.0, 4.0]),),
        [
            (torch.zeros(6),),  # no steep sample: no events
            (torch.tensor([0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]),),  # one steep sample: one event
            (
                torch.tensor([0.0, 1.0, 2.0, 3.0, 3.0, 3.0, 3.0, 3.0, 4.0, 5.0]),
            ),  # a long event, then a new one
        ],
        ({0: torch.export.Dim("samples", min=4, max=32)},),
        constructs=("for->while_loop",),
    ),
    Case(
        "a_constant_list_copy_consumed_from_its_front_in_a_tensor_while",
        seeded(AltitudeCallouts),
        (torch.tensor([3000.0, 2000.0, 900.0, 450.0, 30.0]),),
        [
            (torch.tensor([3000.0, 2000.0, 900.0, 450.0, 30.0]),),  # each callout, one per sample
            (torch.tensor([3000.0, 2900.0]),),  # none: no events
            (torch.tensor([3000.0, 600.0, 40.0, 10.0]),),  # several in one sample, then the list empty
        ],
        ({0: torch.export.Dim("samples", min=2, max=64)},),
        constructs=("for->while_loop", "while->while_loop"),
    ),
    Case(
        "a_list_appended_in_a_nested_while_and_in_a_branch_after_it",
        seeded(CalloutsAndAlerts),
        (torch.tensor([[3000.0, -500.0], [2000.0, -4000.0], [900.0, -700.0], [30.0, -600.0]]),),
        [
            (torch.tensor([[3000.0, -500.0], [2900.0, -400.0]]),),  # no callout, no alert: no events
            (torch.tensor([[3000.0, -5000.0], [2950.0, -200.0]]),),  # an alert only
            (torch.tensor([[3000.0, -500.0], [40.0, -3000.0], [10.0, -100.0]]),),  # every callout, an alert
        ],
        ({0: torch.export.Dim("samples", min=2, max=64)},),
        constructs=("for->while_loop", "while->while_loop"),
    ),
]
