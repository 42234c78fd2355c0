"""Tier-up policy of a method JIT.

Per function the profiler sees [invocations, loop back-edges, bytecode size,
deoptimisations].  Each function is kept in the interpreter (tier 0), sent to
the baseline compiler (tier 1) or to the optimising compiler (tier 2).  A
small learned benefit model ranks the tier-2 candidates, and when the
optimised-code budget is exceeded the least beneficial ones are demoted.
"""
import torch
import torch.nn as nn


class BenefitModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, counters):
        return self.mlp(torch.log1p(counters)).squeeze(-1)


class TierUpPolicy(nn.Module):
    def __init__(self):
        super().__init__()
        self.benefit = BenefitModel()
        self.tier1_threshold = 200.0
        self.tier2_threshold = 5000.0
        self.osr_threshold = 20000.0
        self.max_opt_size = 3000.0
        self.max_deopts = 4.0
        self.bytes_per_bytecode = 6.0

    def _decide(self, inv, backedges, size, deopts, scale):
        if deopts > self.max_deopts:
            return 0  # deopt storm: blacklist from optimisation
        hot = inv > self.tier2_threshold * scale or backedges > self.osr_threshold * scale
        if hot and size < self.max_opt_size:
            return 2
        elif inv > self.tier1_threshold * scale:
            return 1
        return 0

    def forward(self, counters, code_budget):
        n = counters.shape[0]
        # big modules: be stingier so the compile queue does not explode
        scale = 2.0 if n > 64 else 1.0
        tiers = []
        for i in range(n):
            inv, backedges, size, deopts = counters[i].unbind()
            tiers.append(self._decide(inv, backedges, size, deopts, scale))
        tiers = torch.tensor(tiers, dtype=torch.long)

        benefit = self.benefit(counters)
        opt_size = counters[:, 2] * self.bytes_per_bytecode
        used = (opt_size * (tiers == 2)).sum()
        while used > code_budget[0]:
            cand = torch.where(tiers == 2, benefit, torch.full_like(benefit, float("inf")))
            worst = torch.argmin(cand)
            tiers[worst] = 1
            used = used - opt_size[worst]
        return tiers, used


def model():
    torch.manual_seed(5304)
    return TierUpPolicy().eval()


def example_inputs():
    return verify_inputs()[0]


def dynamic_shapes():
    funcs = torch.export.Dim("funcs", min=2, max=128)
    return ({0: funcs}, None)


def verify_inputs():
    def profile(n, seed):
        g = torch.Generator().manual_seed(seed)
        inv = torch.exp(torch.rand(n, generator=g) * 10.0)          # 1 .. 22000
        back = torch.exp(torch.rand(n, generator=g) * 10.5)         # 1 .. 36000
        size = 20.0 + torch.rand(n, generator=g) * 4000.0
        deopt = torch.floor(torch.rand(n, generator=g) * 6.0)
        return torch.stack([inv, back, size, deopt], dim=1)

    return [
        # example: 40 functions (scale 1); mixture of all tiers, incl. the
        # deopt blacklist, hot-by-invocations and hot-by-backedges (or);
        # 30 KB budget forces demotions in the while loop
        (profile(40, seed=1), torch.tensor([30000.0])),
        # 2 functions (min): one blacklisted by deopts, one hot but too big
        # (and-operand false) and warm -> tier 1; budget never exceeded
        (torch.tensor([[9000.0, 10.0, 100.0, 5.0],
                       [9000.0, 10.0, 3500.0, 0.0]]), torch.tensor([30000.0])),
        # 128 functions (max) -> scale 2 for big modules; huge budget -> no demotion
        (profile(128, seed=2), torch.tensor([1.0e7])),
        # 3 functions: one cold (tier 0, no or-operand true), one hot by
        # backedges only and small -> tier 2, then demoted by a tiny budget
        (torch.tensor([[10.0, 5.0, 50.0, 0.0],
                       [100.0, 30000.0, 400.0, 1.0],
                       [300.0, 7.0, 80.0, 0.0]]), torch.tensor([100.0])),
    ]
