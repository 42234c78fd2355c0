"""Lists of Python bools a loop sets entry by entry under a tensor `break`, read back by a
comprehension: load shedding, lowest priority first, until the power budget balances."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded

STEPS = torch.export.Dim("steps", min=2, max=32)


class ShedUntilBalanced(nn.Module):
    """``enabled[i] = False`` at a graph loop's counter (a tensor `break` makes the inner loop one),
    then ``[1.0 if e else 0.0 for e in enabled]``."""

    def forward(self, loads):
        on_time = torch.zeros(4)
        for t in range(loads.shape[0]):
            enabled = [True] * 4
            net = loads[t, 4]
            for i in range(3, -1, -1):
                if i == 0:  # the first load is essential: never shed
                    continue
                enabled[i] = False
                net = net + loads[t, i]
                if net >= 0:
                    break
            on_time = on_time + torch.tensor([1.0 if e else 0.0 for e in enabled])
        return on_time


class Load(nn.Module):
    def __init__(self, essential: bool, peak: float):
        super().__init__()
        self.essential, self.peak = essential, peak

    def forward(self, requested):
        return requested.clamp(max=self.peak)


class ShedSubsystems(nn.Module):
    """The same over an ``nn.ModuleList`` whose entries carry a Python flag (``self.loads[i].essential``),
    inside a latched tensor branch; a comprehension that binds ``i`` precedes the loop over ``i``
    (the comprehension's ``i`` is its own: the loop counter is not live across iterations)."""

    def __init__(self):
        super().__init__()
        self.loads = nn.ModuleList([Load(True, 2.0), Load(True, 3.0), Load(False, 4.0), Load(False, 5.0)])

    def forward(self, supply, requests):
        on_time = torch.zeros(len(self.loads))
        shedding = False
        for t in range(supply.shape[0]):
            powers = [load(requests[t, i]) for i, load in enumerate(self.loads)]
            enabled = [True] * len(self.loads)
            net = supply[t] - torch.stack(powers).sum()
            if net < -2.0:
                shedding = True
            if shedding and net < 0:
                for i in range(len(self.loads) - 1, -1, -1):
                    if self.loads[i].essential:
                        continue
                    enabled[i] = False
                    net = net + powers[i]
                    if net >= 0:
                        break
            on_time = on_time + torch.tensor([1.0 if e else 0.0 for e in enabled])
        return on_time


def _loads(rows: int, base: float, seed: int) -> torch.Tensor:
    g = torch.Generator().manual_seed(seed)
    loads = torch.rand(rows, 5, generator=g) + 0.1
    loads[:, 4] = base - loads[:, :4].sum(1)  # the budget before shedding: negative means short
    return loads


CASES = [
    Case(
        "bool_list_set_at_a_graph_loop_counter_under_a_break",
        seeded(ShedUntilBalanced),
        (_loads(6, 0.0, 0),),
        [
            (_loads(5, 4.0, 1),),  # a surplus: the first load shed already balances (break at once)
            (_loads(7, -0.5, 2),),  # short by a little: one or two loads shed
            (_loads(4, -6.0, 3),),  # short by far: every sheddable load off, no break
        ],
        ({0: STEPS},),
        constructs=("if->cond",),
    ),
    Case(
        "module_list_flag_read_at_a_graph_loop_counter",
        seeded(ShedSubsystems),
        (torch.full((6,), 6.0), torch.full((6, 4), 1.5)),
        [
            (torch.full((5,), 20.0), torch.full((5, 4), 1.0)),  # always a surplus: nothing shed
            (torch.tensor([9.0, 3.0, 6.0, 7.0, 1.0]), torch.full((5, 4), 2.5)),  # short, then latched
            (torch.tensor([1.0, 0.5, 0.2]), torch.full((3, 4), 3.0)),  # short by far: both shed, no break
        ],
        ({0: STEPS}, {0: STEPS}),
        constructs=("if->cond",),
    ),
]
