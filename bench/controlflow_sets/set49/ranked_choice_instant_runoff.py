"""Instant-runoff (ranked-choice) election tabulation over weighted ballot
groups: repeated first-choice tallies, eliminating the weakest candidate
until someone holds a majority of the continuing vote."""
import torch
import torch.nn as nn
from torch.export import Dim


class InstantRunoff(nn.Module):
    def __init__(self, majority=0.5):
        super().__init__()
        self.majority = majority

    def tally(self, prefs, weights, active):
        # each ballot counts for its highest-ranked continuing candidate
        masked = prefs.masked_fill(~active[None, :], float("-inf"))
        first = masked.argmax(dim=1)
        counts = torch.zeros(prefs.shape[1]).scatter_add(0, first, weights)
        return counts

    def forward(self, prefs, weights):
        # prefs: [B, C] ranking scores per ballot group (higher = preferred)
        # weights: [B] number of voters in each ballot group
        C = prefs.shape[1]
        if C == 2:
            # head-to-head race: a single count decides it
            counts = self.tally(prefs, weights, torch.ones(2, dtype=torch.bool))
            return counts[None, :], (counts == counts.max()).float()
        active = torch.ones(C, dtype=torch.bool)
        rounds = []
        while True:
            counts = self.tally(prefs, weights, active)
            rounds.append(counts)
            share = counts / counts.sum()
            if share.max() > self.majority:
                break
            loser = counts.masked_fill(~active, float("inf")).argmin()
            active = active & (torch.arange(C) != loser)
        winner = (share == share.max()).float()
        return torch.stack(rounds), winner


def model():
    torch.manual_seed(4911)
    return InstantRunoff().eval()


def _election(B, C, seed, favour=None, boost=0.0):
    g = torch.Generator().manual_seed(seed)
    prefs = torch.rand(B, C, generator=g)
    weights = 10.0 + 90.0 * torch.rand(B, generator=g)
    if favour is not None:
        prefs[:, favour] += boost
    return prefs, weights


def example_inputs():
    # 5 candidates, fragmented vote: several elimination rounds
    return _election(40, 5, 101)


def dynamic_shapes():
    b = Dim("ballots", min=2, max=256)
    return ({0: b, 1: Dim("candidates", min=2, max=8)}, {0: b})


def verify_inputs():
    return [
        example_inputs(),
        _election(30, 4, 102, favour=1, boost=0.8),  # landslide: majority in round 1, no elimination
        _election(12, 2, 103),                       # two candidates -> early return
        _election(256, 8, 104),                      # 8 candidates, many rounds
        _election(3, 3, 105),                        # tiny electorate: majority at once
    ]
