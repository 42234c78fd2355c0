"""Register allocator front end: backward liveness dataflow over a function's
instruction-level CFG (iterate to a fixed point), register pressure per
instruction, and greedy spill selection with a learned spill-cost model until
pressure fits the machine's register file."""
import torch
import torch.nn as nn
from torch.export import Dim


class SpillSelector(nn.Module):
    """Greedy spilling: evict the cheapest register live at an over-pressure point until all points fit."""

    def __init__(self, num_regs, physical_regs):
        super().__init__()
        self.num_regs = num_regs
        self.physical_regs = physical_regs
        self.spill_cost = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1))

    def choose_victim(self, live, cost):
        over = live.sum(1) > self.physical_regs
        candidates = (live * over[:, None].float()).sum(0) > 0
        masked = torch.where(candidates, cost, torch.full_like(cost, float("inf")))
        return torch.argmin(masked)

    def forward(self, live_in, uses, defs):
        feats = torch.stack([uses.sum(0), defs.sum(0), live_in.sum(0)], 1)
        # prefer lower-numbered registers on equal cost
        cost = self.spill_cost(feats).squeeze(1) + 1e-3 * torch.arange(self.num_regs, dtype=uses.dtype)
        live = live_in
        spilled = torch.zeros(self.num_regs)
        while (live.sum(1) > self.physical_regs).any():
            victim = self.choose_victim(live, cost)
            spilled[victim] = 1.0
            live = live * (torch.arange(self.num_regs) != victim).float()
        return spilled


class LivenessAnalyzer(nn.Module):
    def __init__(self):
        super().__init__()
        self.num_regs = 16          # virtual registers tracked (static)
        self.max_iters = 200
        self.spiller = SpillSelector(self.num_regs, physical_regs=6)

    def live_out_from_successors(self, live_in, succ):
        out = torch.zeros_like(live_in)
        for j in range(succ.shape[1]):  # fallthrough and branch target
            idx = succ[:, j]
            valid = (idx >= 0).float()[:, None]
            out = torch.maximum(out, live_in[idx.clamp(min=0)] * valid)
        return out

    def forward(self, uses, defs, succ):
        # uses/defs: [N, 16] 0/1 per instruction; succ: [N, 2] successor index or -1
        live_in = torch.zeros_like(uses)
        live_out = torch.zeros_like(uses)
        changed = torch.tensor(True)
        iters = 0
        while changed and iters < self.max_iters:
            new_out = self.live_out_from_successors(live_in, succ)
            new_in = torch.maximum(uses, new_out * (1.0 - defs))
            changed = (new_in != live_in).any() or (new_out != live_out).any()
            live_in, live_out = new_in, new_out
            iters += 1
        pressure = live_in.sum(1)
        spilled = self.spiller(live_in, uses, defs)
        return live_in, pressure, spilled, torch.tensor(iters)


def model():
    torch.manual_seed(5212)
    return LivenessAnalyzer().eval()


def _function(n, seed, density, loops):
    g = torch.Generator().manual_seed(seed)
    uses = (torch.rand(n, 16, generator=g) < density).float()
    defs = (torch.rand(n, 16, generator=g) < density).float()
    fall = torch.arange(1, n + 1)
    fall[-1] = -1  # return
    branch = torch.full((n,), -1)
    for k in range(loops):
        src = int(torch.randint(n // 2, n, (), generator=g))
        branch[src] = int(torch.randint(0, max(src, 1), (), generator=g))  # back edge
    return uses, defs, torch.stack([fall, branch], 1)


def example_inputs():
    return _function(24, 1, 0.15, 2)


def dynamic_shapes():
    n = Dim("instructions", min=2, max=128)
    return {0: n}, {0: n}, {0: n}


def verify_inputs():
    return [
        example_inputs(),            # loops -> several dataflow passes; moderate pressure
        _function(2, 2, 0.1, 0),     # min size, straight line, low pressure -> no spills
        _function(128, 3, 0.3, 6),   # max size, many back edges, high pressure -> spill loop
        _function(60, 4, 0.05, 1),   # sparse, single loop
    ]
