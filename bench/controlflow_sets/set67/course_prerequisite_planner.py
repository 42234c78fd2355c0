"""Degree-audit planner: schedule a student's remaining courses into terms.

Each term, the courses whose prerequisites are all done are ranked by how
many other courses they unlock plus a learned preference score (workload,
difficulty, ...), then packed greedily under the per-term credit cap (a course
that does not fit is skipped, a lighter one may still fit). Planning stops when
everything is scheduled, when nothing is eligible (a prerequisite cycle in the
catalogue) or after the maximum number of terms.

prereq[i, j] = 1 when course j is a prerequisite of course i.

Constructs: 1, 3, 4, 5, 6, 7
"""
import torch
import torch.nn as nn
from torch.export import Dim


class DegreePlanner(nn.Module):
    def __init__(self):
        super().__init__()
        self.max_terms = 8
        self.preference = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 1))

    def pick_courses(self, order, ready, credits, cap):
        taking = torch.zeros_like(ready)
        load = torch.zeros(())
        for j in range(order.shape[0]):
            c = order[j]
            if not ready[c]:
                break  # eligible courses come first in `order`: nothing left to try
            if load + credits[c] > cap:
                continue  # too heavy for this term
            taking[c] = True
            load = load + credits[c]
        return taking

    def forward(self, prereq, credits, completed, features, max_credits):
        n = prereq.shape[0]
        unlocks = prereq.sum(0)
        pref = torch.sigmoid(self.preference(torch.cat([features, unlocks[:, None] / n], dim=1))).squeeze(1)
        score = unlocks + pref

        done = completed > 0.5
        term_of = torch.full((n,), -1.0)
        term = 0
        while not done.all():
            if term >= self.max_terms:
                break
            missing = (prereq * (~done).float()[None, :]).sum(1)
            ready = ~done & (missing == 0)
            if not ready.any():
                break  # blocked: prerequisite cycle
            order = torch.argsort(torch.where(ready, score, torch.full_like(score, -1.0)), descending=True)
            taking = self.pick_courses(order, ready, credits, max_credits[0])
            term_of = torch.where(taking, torch.full_like(term_of, float(term)), term_of)
            done = done | taking
            term += 1
        return term_of, torch.tensor(float(term))


def model():
    torch.manual_seed(67)
    return DegreePlanner().eval()


def _catalogue(n, edges, credits, completed, cap, seed):
    """edges: (course, prerequisite) pairs"""
    prereq = torch.zeros(n, n)
    for c, p in edges:
        prereq[c, p] = 1.0
    g = torch.Generator().manual_seed(seed)
    feats = torch.rand(n, 4, generator=g)
    return (prereq, torch.tensor(credits, dtype=torch.float32), torch.tensor(completed, dtype=torch.float32),
            feats, torch.tensor([cap], dtype=torch.float32))


def example_inputs():
    # 8 courses, intro already done; chains and a 5-credit lab that does not always fit the 9-credit cap
    return _catalogue(8, [(1, 0), (2, 0), (3, 1), (4, 1), (4, 2), (5, 3), (6, 2), (7, 5), (7, 6)],
                      [3, 4, 3, 5, 3, 4, 3, 4], [1, 0, 0, 0, 0, 0, 0, 0], 9.0, 1)


def dynamic_shapes():
    C = Dim("courses", min=2, max=24)
    return ({0: C, 1: C}, {0: C}, {0: C}, {0: C}, None)


def verify_inputs():
    return [
        example_inputs(),                                                                # several terms; skip (continue) and stop (break) in the packer
        _catalogue(3, [(1, 0), (2, 1)], [3, 3, 3], [1, 1, 1], 9.0, 2),                   # everything done: the while loop never runs
        _catalogue(4, [(1, 0), (2, 3), (3, 2)], [3, 3, 3, 3], [0, 0, 0, 0], 9.0, 3),     # courses 2 and 3 require each other: blocked break
        _catalogue(3, [(2, 0)], [3, 3, 6], [0, 0, 0], 5.0, 4),                           # 6-credit capstone never fits 5: runs into max_terms
        _catalogue(2, [], [3, 4], [0, 0], 9.0, 5),                                       # two independent courses fit one term: one pass
    ]
