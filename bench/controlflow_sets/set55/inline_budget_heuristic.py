"""Compiler inliner: decides which call sites to inline under a code-size budget.

Each call site is described by six features: callee size (IR instructions),
profile call count, loop depth, fraction of constant arguments, whether the
callee is recursive and whether the call is indirect. A small learned cost
model ranks call sites; a greedy pass then spends the instruction budget.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def normalize_callsites(feats):
    size = torch.log1p(feats[:, 0]) / 8.0
    count = torch.log1p(feats[:, 1]) / 12.0
    return torch.stack([size, count, feats[:, 2] / 4.0, feats[:, 3], feats[:, 4], feats[:, 5]], dim=1)


class CallSiteScorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(6, 32), nn.Tanh(), nn.Linear(32, 1))

    def forward(self, feats):
        logit = self.mlp(normalize_callsites(feats)).squeeze(1)
        # hotter call sites in deeper loops benefit more
        logit = logit + 0.5 * torch.log1p(feats[:, 1]) * (1.0 + feats[:, 2]) / 10.0
        if (feats[:, 4] > 0.5).any():
            # inlining recursive callees only unrolls one level: penalise heavily
            logit = logit - 4.0 * feats[:, 4]
        return logit


class InlineBudgetHeuristic(nn.Module):
    def __init__(self, min_score=0.0, min_callee_size=5.0):
        super().__init__()
        self.scorer = CallSiteScorer()
        self.min_score = min_score
        self.min_callee_size = min_callee_size

    def forward(self, callsites, budget):
        n = callsites.shape[0]
        scores = self.scorer(callsites)
        order = torch.argsort(scores, descending=True)
        remaining = budget.reshape(())
        chosen = []
        for i in range(n):
            if remaining < self.min_callee_size:
                break  # nothing can fit any more
            idx = order[i]
            cost = callsites[idx, 0]
            if scores[idx] < self.min_score or cost > remaining:
                continue
            remaining = remaining - cost
            chosen.append(F.one_hot(idx, n))
        if chosen:
            mask = torch.stack(chosen).sum(0)
        else:
            mask = torch.zeros(n, dtype=torch.long)
        return mask, remaining


def model():
    torch.manual_seed(5502)
    return InlineBudgetHeuristic().eval()


def _callsites(n, seed, recursive=True, size_scale=60.0):
    g = torch.Generator().manual_seed(seed)
    size = torch.floor(5.0 + size_scale * torch.rand(n, generator=g) ** 2) + torch.rand(n, generator=g) * 0.01
    count = torch.floor(10.0 ** (4.0 * torch.rand(n, generator=g)))
    depth = torch.randint(0, 4, (n,), generator=g).float()
    const = torch.rand(n, generator=g)
    rec = (torch.rand(n, generator=g) < 0.15).float() if recursive else torch.zeros(n)
    indirect = (torch.rand(n, generator=g) < 0.2).float()
    return torch.stack([size, count, depth, const, rec, indirect], dim=1)


def example_inputs():
    return (_callsites(40, 11), torch.tensor([200.0]))


def dynamic_shapes():
    n = torch.export.Dim("n_callsites", min=2, max=256)
    return ({0: n}, None)


def verify_inputs():
    return [
        example_inputs(),                                          # recursive callee penalised; budget runs out -> break
        (_callsites(2, 12, recursive=False), torch.tensor([1000.0])),  # n=min, no recursion, loop completes
        (_callsites(256, 13), torch.tensor([600.0])),              # n=max, recursive penalty, break on budget
        (_callsites(16, 14), torch.tensor([0.0])),                 # zero budget: immediate break, nothing chosen
        (_callsites(8, 15, size_scale=400.0) + torch.tensor([100.0, 0, 0, 0, 0, 0]),
         torch.tensor([50.0])),                                    # every callee too big: all continue, empty mask
    ]
