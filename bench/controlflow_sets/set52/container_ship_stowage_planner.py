"""Feeder container ship stowage: containers arrive at the quay in gate order
and are stacked greedily into 6 bays x 4 tiers, trying the lighter side of the
ship first; a box may only go on a stack whose top is not lighter beyond
tolerance and is discharged no earlier (no re-handling). Boxes that fit nowhere
are shut out; loading stops after too many shut-outs. A small model rates the
final stability (GM margin) from the bay loads."""
import torch
import torch.nn as nn
from torch.export import Dim


class StowagePlanner(nn.Module):
    def __init__(self):
        super().__init__()
        self.bays, self.tiers = 6, 4
        self.register_buffer("lever_arm", torch.tensor([-1.0, 1.0, -1.0, 1.0, -1.0, 1.0]))  # port -, starboard +
        self.port_first = [0, 2, 4, 1, 3, 5]
        self.starboard_first = [1, 3, 5, 0, 2, 4]
        self.weight_tolerance_t = 2.0
        self.max_shut_out = 3
        self.stability = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 1))

    def fits_on(self, stack, weights, ports, c):
        if len(stack) == self.tiers:
            return False
        if not stack:
            return True
        top = stack[-1]
        return bool(weights[c] <= weights[top] + self.weight_tolerance_t) and bool(ports[c] <= ports[top])

    def forward(self, weights, ports):
        # weights: [C] tonnes; ports: [C] discharge port sequence number (1 = first port of call)
        stacks = [[] for _ in range(self.bays)]
        bay_load = torch.zeros(self.bays)
        slots = []
        shut_out = 0
        for c in range(weights.shape[0]):
            heel = (bay_load * self.lever_arm).sum()
            order = self.port_first if heel > 0 else self.starboard_first
            for bay in order:
                if not self.fits_on(stacks[bay], weights, ports, c):
                    continue
                slots.append(torch.tensor([bay, len(stacks[bay])]))
                stacks[bay].append(c)
                bay_load = bay_load + weights[c] * (torch.arange(self.bays) == bay).float()
                break
            else:
                slots.append(torch.tensor([-1, -1]))
                shut_out += 1
                if shut_out > self.max_shut_out:
                    break  # stop loading, call the planner
        while len(slots) < weights.shape[0]:
            slots.append(torch.tensor([-1, -1]))
        gm_margin = self.stability(bay_load / 100.0).squeeze(0)
        return torch.stack(slots), bay_load, gm_margin, torch.tensor(shut_out)


def model():
    torch.manual_seed(5217)
    return StowagePlanner().eval()


def _boxes(n, seed, heavy_first=True):
    g = torch.Generator().manual_seed(seed)
    w = 4.0 + 26.0 * torch.rand(n, generator=g)
    p = torch.randint(1, 5, (n,), generator=g)
    if heavy_first:
        w = torch.linspace(30.0, 4.0, n) + torch.rand(n, generator=g)
        p = torch.linspace(4.0, 1.0, n).round().long()
    return w, p


def example_inputs():
    return _boxes(20, 1)


def dynamic_shapes():
    c = Dim("containers", min=2, max=96)
    return {0: c}, {0: c}


def verify_inputs():
    return [
        example_inputs(),                       # well-sorted arrivals: everything stowed, alternating sides
        _boxes(2, 2),                           # min containers
        _boxes(96, 3, heavy_first=False),       # max containers, random gate order -> shut-outs -> stop loading
        _boxes(30, 4),                          # more than 24 slots: ship full -> shut-outs then stop
        (torch.tensor([10.0, 20.0, 9.0, 25.0, 8.0]), torch.tensor([2, 1, 3, 1, 1])),  # heavy/late boxes can't go on top -> new stacks
    ]
