"""JIT compiler back end: linear-scan register allocation with a learned spill cost.

Live intervals (start, end) arrive sorted by start point together with a few
per-value features (use count, loop depth, ...). An MLP predicts the cost of
spilling each value. The classic Poletto-Sarkar linear scan keeps an `active`
list ordered by end point: expired intervals give their register back; when no
register is free, the interval with the lowest spill cost per remaining
lifetime among the active ones and the new one is spilled.
Returns the register of every interval (-1 = spilled to the stack) and the
total predicted spill cost.

Kind: X. Constructs: 1, 2, 3, 5, 6, 7.
"""
import torch
from torch import nn
from torch.export import Dim


def insert_by_end(active, idx, intervals):
    """Insert interval idx into the python list `active`, kept sorted by end point."""
    for pos, other in enumerate(active):
        if intervals[other, 1] > intervals[idx, 1]:
            active.insert(pos, idx)
            return
    active.append(idx)


def expire_old(active, start, intervals, reg, free):
    """Free the registers of active intervals that ended before `start`."""
    while active:
        first = active[0]
        if intervals[first, 1] >= start:
            break
        active.pop(0)
        free.append(reg[first])


class LinearScanAllocator(nn.Module):
    def __init__(self, num_regs=3, n_feats=4):
        super().__init__()
        self.num_regs = num_regs
        self.spill_cost = nn.Sequential(nn.Linear(n_feats, 16), nn.ReLU(), nn.Linear(16, 1), nn.Softplus())

    def pick_victim(self, candidates, cost, intervals, now):
        best, best_score = None, None
        for c in candidates:
            remaining = (intervals[c, 1] - now + 1).clamp(min=1).float()
            score = cost[c] / remaining
            if best is None or score < best_score:
                best, best_score = c, score
        return best

    def forward(self, intervals, feats):
        cost = self.spill_cost(feats).squeeze(-1)
        n = intervals.shape[0]
        reg = [-1] * n
        free = list(range(self.num_regs - 1, -1, -1))
        active = []
        spilled_cost = torch.zeros(())
        for i in range(n):
            start = intervals[i, 0]
            expire_old(active, start, intervals, reg, free)
            if free:
                reg[i] = free.pop()
                insert_by_end(active, i, intervals)
                continue
            victim = self.pick_victim(active + [i], cost, intervals, start)
            if victim != i:
                reg[i] = reg[victim]
                reg[victim] = -1
                active.remove(victim)
                insert_by_end(active, i, intervals)
            spilled_cost = spilled_cost + cost[victim]
        return torch.tensor(reg, dtype=torch.long), spilled_cost.reshape(1)


def model():
    torch.manual_seed(4211)
    return LinearScanAllocator().eval()


def _program(n, max_len, seed):
    g = torch.Generator().manual_seed(seed)
    starts = torch.sort(torch.randint(0, 3 * n, (n,), generator=g)).values
    ends = starts + torch.randint(1, max_len, (n,), generator=g)
    feats = torch.rand(n, 4, generator=g) * torch.tensor([10.0, 3.0, 1.0, 1.0])
    return torch.stack([starts, ends], dim=1), feats


def example_inputs():
    return _program(12, 12, seed=0)


def dynamic_shapes():
    n = Dim("values", min=2, max=256)
    return ({0: n}, {0: n})


def verify_inputs():
    return [
        example_inputs(),            # register pressure: both "spill an active value" and "spill the new one"
        _program(6, 3, seed=1),      # short lifetimes: everything fits, expiry loop frees registers
        (torch.tensor([[0, 9], [1, 9], [2, 9], [3, 9]]),   # 4 values live across the same range,
         torch.tensor([[9.0, 2, 1, 0], [1.0, 0, 0, 0], [8.0, 2, 1, 1], [0.5, 0, 0, 1]])),  # 3 registers
        _program(40, 30, seed=3),    # long function, heavy spilling
    ]
