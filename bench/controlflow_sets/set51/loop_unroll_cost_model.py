"""Compiler loop-unroll cost model.

Given per-loop features from the optimizer (trip count, body instruction count,
register pressure, memory ops, branch count, ...), an MLP scores unroll factors
1/2/4/8 and heuristics pick one per loop.
"""
import torch
import torch.nn as nn


class UnrollCostModel(nn.Module):
    def __init__(self, respect_code_size=True, allow_full_unroll=True, size_penalty=0.01):
        super().__init__()
        self.respect_code_size = respect_code_size
        self.allow_full_unroll = allow_full_unroll
        self.size_penalty = size_penalty
        self.register_buffer("factors", torch.tensor([1.0, 2.0, 4.0, 8.0]))
        self.scorer = nn.Sequential(nn.Linear(8, 32), nn.Tanh(), nn.Linear(32, 4))

    def normalize(self, feats):
        # log-scale the count-like features
        return torch.cat([torch.log1p(feats[:, :4].clamp(min=0)), feats[:, 4:]], dim=1)

    def code_size_penalty(self, body_size):
        return self.size_penalty * body_size.unsqueeze(1) * self.factors

    def forward(self, feats):
        trip = feats[:, 0]
        scores = self.scorer(self.normalize(feats))
        if self.respect_code_size:
            scores = scores - self.code_size_penalty(feats[:, 1])

        if (trip <= 1).all():
            # single-iteration loops everywhere: nothing to do
            return torch.ones_like(trip), scores

        best = scores.argmax(dim=1)
        chosen = self.factors[best]
        # never unroll beyond the trip count
        chosen = torch.minimum(chosen, trip.clamp(min=1))
        if self.allow_full_unroll and (trip <= 8).all():
            # tiny constant loops: fully unroll
            chosen = trip.clamp(min=1)
        if feats.shape[0] > 64:
            # huge translation unit: cap unrolling to keep compile time sane
            chosen = chosen.clamp(max=4.0)
        return chosen, scores


def model():
    torch.manual_seed(5103)
    return UnrollCostModel().eval()


def _loops(n, trip_lo, trip_hi, seed):
    g = torch.Generator().manual_seed(seed)
    f = torch.rand(n, 8, generator=g)
    f[:, 0] = torch.linspace(trip_lo, trip_hi, n).round()
    f[:, 1] = 4 + 40 * f[:, 1]
    return f


def example_inputs():
    return (_loops(20, 1, 300, 1),)


def dynamic_shapes():
    return ({0: torch.export.Dim("loops", min=2, max=256)},)


def verify_inputs():
    return [
        # example: mixed trip counts -> scored choice, no full unroll, small TU
        example_inputs(),
        # min size, all trip counts 1 -> early return
        (_loops(2, 1, 1, 2),),
        # tiny constant loops (trip <= 8) -> full unroll branch
        (_loops(5, 2, 8, 3),),
        # max size translation unit -> cap at 4 branch
        (_loops(256, 1, 1000, 4),),
    ]
