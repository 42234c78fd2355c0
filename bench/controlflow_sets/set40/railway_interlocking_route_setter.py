"""Station interlocking: grant requested train routes in priority order. A
route is only set if none of its track sections is locked by another route or
shows occupied on its track circuit (ambiguous readings count as occupied);
setting a route also locks its flank sections. A learned model estimates how
long the points take to throw for the granted set.

Kind X; constructs 1, 2, 3, 5, 6, 7, 9."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim


def section_occupied(v, shunted_below=0.3, clear_above=0.7):
    """Track-circuit relay voltage (normalised). An axle shunts it low."""
    if v < shunted_below:
        return True
    if v > clear_above:
        return False
    return True          # in between: fail safe


def route_free(sections, volts, locked):
    for j in range(sections.shape[0]):
        s = sections[j]
        if locked[s] > 0:
            return False
        if section_occupied(volts[s]):
            return False
    return True


class Interlocking(nn.Module):
    def __init__(self):
        super().__init__()
        torch.manual_seed(412)
        self.set_time = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))
        self.max_routes = 3           # simultaneous routes the station can supervise
        self.flank_protection = True

    def forward(self, volts, routes, priority):
        # volts: [S] track-circuit voltages, routes: [R, S] 0/1 section membership, priority: [R]
        locked = torch.zeros_like(volts)
        granted = torch.zeros_like(priority)
        order = torch.argsort(priority, descending=True)
        n_set = 0
        for k in range(routes.shape[0]):
            r = order[k]
            sections = routes[r].nonzero().squeeze(1)
            if sections.shape[0] == 0:
                continue                      # empty request (cancelled)
            if not route_free(sections, volts, locked):
                continue
            locked[sections] = 1.0
            if self.flank_protection:  # pragma: no branch
                lo = torch.clamp(sections.min() - 1, min=0)
                hi = torch.clamp(sections.max() + 1, max=volts.shape[0] - 1)
                locked[lo] = 1.0
                locked[hi] = 1.0
            granted[r] = 1.0
            n_set += 1
            if n_set >= self.max_routes:
                break
        feats = torch.stack([granted.sum(), locked.sum(), (volts < 0.3).to(volts.dtype).sum(), priority.max()])
        return granted, locked, F.softplus(self.set_time(feats))


def model():
    return Interlocking().eval()


def _routes(S, spans):
    r = torch.zeros(len(spans), S)
    for i, (a, b) in enumerate(spans):
        r[i, a:b] = 1.0
    return r


def example_inputs():
    volts = torch.full((12,), 0.9)
    volts[10] = 0.1                                       # a train stands on section 10
    return volts, _routes(12, [(0, 3), (4, 7), (9, 12), (2, 5)]), torch.tensor([3.0, 2.0, 1.0, 0.5])


def dynamic_shapes():
    sections = Dim("sections", min=4, max=40)
    requests = Dim("requests", min=2, max=10)
    return ({0: sections}, {0: requests, 1: sections}, {0: requests})


def verify_inputs():
    v_amb = torch.full((4,), 0.9)
    v_amb[3] = 0.5                                        # ambiguous reading on section 3
    g = torch.Generator().manual_seed(3)
    v40 = 0.75 + 0.2 * torch.rand(40, generator=g)
    spans10 = [(0, 3), (5, 8), (10, 14), (16, 19), (21, 24), (26, 29), (31, 33), (35, 38), (2, 6), (38, 40)]
    return [
        example_inputs(),                                 # two routes granted, one blocked by a train, one by a lock
        (v_amb, _routes(4, [(0, 2), (3, 4)]), torch.tensor([1.0, 2.0])),
                                                          # min sizes: higher-priority route on an ambiguous section refused
        (torch.full((6,), 0.9), _routes(6, [(0, 0), (1, 3)]), torch.tensor([5.0, 1.0])),
                                                          # cancelled (empty) request skipped, other granted
        (v40, _routes(40, spans10), torch.arange(10, 0, -1).float()),
                                                          # max sizes: three routes set -> break
    ]
