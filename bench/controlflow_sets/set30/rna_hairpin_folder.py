"""RNA secondary-structure folding with learned pair scores (Nussinov DP) (kind X).

Input: an RNA sequence one-hot encoded (L, 4) in order A, C, G, U.  A small CNN gives
context-dependent base-pair scores; the Nussinov dynamic programme then fills the
(L, L) table with nested Python loops over span, start and split point.  Only canonical
Watson-Crick / wobble pairs may pair, hairpin loops must have at least `min_loop`
unpaired bases, and bifurcations whose halves contain no pair are skipped.

constructs: 1 (if on a bool tensor), 3 (or on tensor predicates), 5 (nested for over ranges
            derived from the dynamic L), 6 (continue on tensor condition), 7 (control flow
            in a helper method)
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

# A C G U ; allowed pairs: A-U, C-G, G-U (wobble)
_PAIRS = torch.tensor([
    [0, 0, 0, 1],
    [0, 0, 1, 0],
    [0, 1, 0, 1],
    [1, 0, 1, 0],
], dtype=torch.float32)


class NussinovFolder(nn.Module):
    def __init__(self, emb=8, min_loop=3):
        super().__init__()
        self.embed = nn.Linear(4, emb)
        self.context = nn.Conv1d(emb, emb, 3, padding=1)
        self.pair_w = nn.Parameter(0.3 * torch.randn(emb, emb))
        self.register_buffer("pair_table", _PAIRS.clone())
        self.min_loop = min_loop

    def pair_scores(self, seq):
        h = torch.tanh(self.context(self.embed(seq).t().unsqueeze(0))).squeeze(0).t()
        s = F.softplus(h @ self.pair_w @ h.t()) + 0.5      # >= 0.5: every allowed pair helps
        return 0.5 * (s + s.t())

    def best_for_cell(self, dp, score, allowed, i, j):
        best = torch.maximum(dp[i + 1, j], dp[i, j - 1])
        if allowed[i, j]:
            best = torch.maximum(best, dp[i + 1, j - 1] + score[i, j])
        for k in range(i + self.min_loop + 1, j - self.min_loop):
            if dp[i, k] == 0 or dp[k + 1, j] == 0:
                continue
            best = torch.maximum(best, dp[i, k] + dp[k + 1, j])
        return best

    def forward(self, seq):
        L = seq.shape[0]
        allowed = (seq @ self.pair_table @ seq.t()) > 0
        score = self.pair_scores(seq)
        dp = torch.zeros(L, L)
        for span in range(self.min_loop + 1, L):
            for i in range(L - span):
                j = i + span
                dp[i, j] = self.best_for_cell(dp, score, allowed, i, j)
        return dp[0, L - 1], dp


def model():
    torch.manual_seed(311)
    return NussinovFolder().eval()


def _rna(s):
    idx = torch.tensor(["ACGU".index(c) for c in s])
    return (F.one_hot(idx, 4).float(),)


def example_inputs():
    return _rna("GGGAAACCCAGCUUCGGCUG")        # two hairpins: bifurcations used


def dynamic_shapes():
    return ({0: torch.export.Dim("nt", min=4, max=48)},)


def verify_inputs():
    return [
        example_inputs(),          # L=20: many spans, pairs allowed and not, bifurcation loop runs, continue both ways
        _rna("ACGU"),              # L=4: span loop runs 0 times -> score 0
        _rna("GAAAC"),             # L=5: exactly one cell, G-C allowed; no split points
        _rna("AAAAAAAAA"),         # L=9: nothing can pair; split loop runs once and always 'continue'
        _rna("GCAAAGCAAAGC"),      # L=12: pairs across loops, some splits with empty halves (continue) and some kept
    ]
