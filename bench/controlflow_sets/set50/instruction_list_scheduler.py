"""Compiler back end: list scheduling of one basic block for an in-order,
multi-issue core.

Input is the block's dependence DAG (deps[i, j] = 1 when instruction i uses
the result of j, j < i), the latency of every instruction and its op class
(0 ALU, 1 memory, 2 branch).  Priority is the critical-path length plus a
small learned tie-breaking heuristic.  Each cycle the scheduler issues the
highest-priority ready instructions up to the issue width, with a single
memory port; the block's branch must issue last.
"""
import torch
import torch.nn as nn


def successors(deps, i):
    return deps[:, i].nonzero().flatten().tolist()


def critical_path(deps, latency):
    n = latency.shape[0]
    cp = [None] * n
    for i in range(n - 1, -1, -1):
        longest = torch.zeros(())
        for s in successors(deps, i):
            longest = torch.maximum(longest, cp[s])
        cp[i] = latency[i] + longest
    return torch.stack(cp)


class ListScheduler(nn.Module):
    def __init__(self, issue_width=2, single_mem_port=True):
        super().__init__()
        self.heuristic = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1))
        self.issue_width = issue_width
        self.single_mem_port = single_mem_port

    def priorities(self, deps, latency, opclass):
        fanout = deps.sum(0)
        feats = torch.stack([fanout, latency, opclass.float()], dim=1)
        tie_break = 0.1 * torch.tanh(self.heuristic(feats)).squeeze(1)
        return critical_path(deps, latency) + tie_break

    def forward(self, deps, latency, opclass):
        n = latency.shape[0]
        deps = torch.tril(deps, diagonal=-1)
        dep_mask = deps > 0
        prio = self.priorities(deps, latency, opclass)

        issued = torch.zeros(n, dtype=torch.bool)
        issue_cycle = torch.full((n,), -1, dtype=torch.long)
        ready_at = torch.zeros(n)
        cycle = 0
        stalls = 0
        while not issued.all():
            avail = issued & (ready_at <= cycle)
            blocked = (dep_mask & ~avail.unsqueeze(0)).any(dim=1)
            ready = ~issued & ~blocked
            if not ready.any():
                stalls += 1
                cycle += 1
                continue

            order = torch.argsort(prio.masked_fill(~ready, float("-inf")), descending=True, stable=True)
            slots = self.issue_width
            mem_used = False
            for idx in order.tolist():
                if not ready[idx]:
                    break                          # the rest are not ready either
                if opclass[idx] == 2 and (~issued).sum() > 1:
                    continue                       # branch waits until it is the last one
                if self.single_mem_port and opclass[idx] == 1 and mem_used:
                    continue                       # memory port already taken this cycle
                issued[idx] = True
                issue_cycle[idx] = cycle
                ready_at[idx] = cycle + latency[idx]
                mem_used = mem_used or bool(opclass[idx] == 1)
                slots -= 1
                if slots == 0:
                    break
            cycle += 1
        makespan = (ready_at.max()).clamp(min=float(cycle))
        return issue_cycle, makespan, torch.tensor(stalls)


def model():
    torch.manual_seed(511)
    return ListScheduler().eval()


def _block(n, seed, density=0.15):
    g = torch.Generator().manual_seed(seed)
    deps = (torch.rand(n, n, generator=g) < density).float()
    deps = torch.tril(deps, diagonal=-1)
    opclass = torch.randint(0, 2, (n,), generator=g)
    opclass[-1] = 2                                   # block ends in a branch
    latency = torch.where(opclass == 1, 4.0, 1.0)     # loads are slow
    latency[-1] = 1.0
    return deps, latency, opclass


def example_inputs():
    return _block(12, seed=1)


def dynamic_shapes():
    n = torch.export.Dim("instrs", min=3, max=48)
    return ({0: n, 1: n}, {0: n}, {0: n})


def verify_inputs():
    chain = torch.tril(torch.ones(3, 3), diagonal=-1)
    return [
        example_inputs(),                                  # mixed block: stalls, port conflicts, width limit
        (chain, torch.tensor([4.0, 4.0, 1.0]), torch.tensor([1, 1, 2])),  # dependent load chain -> stall cycles
        _block(48, seed=2, density=0.05),                  # largest block, lots of ILP
        _block(20, seed=3, density=0.3),                   # dense DAG
    ]
