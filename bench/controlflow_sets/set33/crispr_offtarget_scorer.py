"""CRISPR-Cas9 guide specificity: score candidate off-target sites of a guide.

guide: [20, 4] one-hot protospacer (A, C, G, T), sites: [K, 23, 4] one-hot
genomic candidates (20-nt protospacer + 3-nt PAM; K dynamic).
Per site: reject non-NGG/NAG PAMs, walk the protospacer from the PAM-proximal
end counting mismatches (a learned, position- and transition-aware penalty
module scores each mismatch), give up as soon as there are too many or the seed
region is hit twice.  The perfect on-target site is not counted.
Returns (specificity score in 0..100, per-site cutting likelihood [K]).
"""
import torch
import torch.nn as nn
from torch.export import Dim

A, C, G, T = 0, 1, 2, 3


class MismatchPenalty(nn.Module):
    """Multiplicative cutting penalty for one mismatch, learned per position."""

    def __init__(self, length=20):
        super().__init__()
        self.position_logit = nn.Parameter(torch.randn(length) * 0.5)
        self.transition_bonus = nn.Parameter(torch.tensor(0.8))

    def forward(self, pos, guide_base, site_base):
        p = torch.sigmoid(self.position_logit[pos] - 0.1 * pos)
        purine_g = guide_base[A] + guide_base[G]
        purine_s = site_base[A] + site_base[G]
        # transitions (purine<->purine, pyrimidine<->pyrimidine) are tolerated better (rG:dT wobble etc.)
        if (purine_g > 0.5 and purine_s > 0.5) or (purine_g < 0.5 and purine_s < 0.5):
            p = torch.sigmoid(torch.logit(p) + self.transition_bonus.abs())
        return p


class OffTargetScorer(nn.Module):
    def __init__(self, max_mismatches=4, seed_start=12, nag_factor=0.25):
        super().__init__()
        self.max_mismatches = max_mismatches
        self.seed_start = seed_start
        self.nag_factor = nag_factor
        self.penalty = MismatchPenalty()

    def site_score(self, guide, site):
        score = torch.ones(())
        mismatches = 0
        seed_hits = 0
        for pos in range(19, -1, -1):  # PAM-proximal first
            if (site[pos] * guide[pos]).sum() > 0.5:
                continue
            mismatches += 1
            if pos >= self.seed_start:
                seed_hits += 1
            score = score * self.penalty(pos, guide[pos], site[pos])
            if mismatches > self.max_mismatches or seed_hits > 1:
                return torch.zeros(()), mismatches
        return score, mismatches

    def forward(self, guide, sites):
        scores = []
        for k in range(sites.shape[0]):
            site = sites[k]
            if site[22, G] < 0.5:
                scores.append(torch.zeros(()))
                continue  # PAM must end in G (NGG / NAG)
            pam_factor = 1.0 if site[21, G] > 0.5 else (self.nag_factor if site[21, A] > 0.5 else 0.0)
            score, mismatches = self.site_score(guide, site)
            if mismatches == 0:
                scores.append(torch.zeros(()))
                continue  # the intended target itself
            scores.append(score * pam_factor)
        scores = torch.stack(scores)
        total = scores.sum()
        if total < 1e-6:
            return torch.tensor(100.0), scores
        return 100.0 / (1.0 + total), scores


def model():
    torch.manual_seed(47)
    return OffTargetScorer().eval()


def _onehot(seq):
    idx = torch.tensor(["ACGT".index(ch) for ch in seq])
    return torch.nn.functional.one_hot(idx, 4).float()


GUIDE = "GACGCATAAAGATGAGACGC"


def _mutate(seq, changes):
    s = list(seq)
    for pos, base in changes:
        s[pos] = base
    return "".join(s)


def _sites(specs):
    return torch.stack([_onehot(_mutate(GUIDE, changes) + pam) for changes, pam in specs])


def example_inputs():
    return (_onehot(GUIDE), _sites([
        ([], "TGG"),                               # on-target
        ([(2, "T"), (7, "C")], "AGG"),             # two PAM-distal mismatches (transversion, transition)
        ([(15, "A")], "CAG"),                      # one seed mismatch, NAG PAM
        ([(1, "C"), (4, "A"), (9, "G")], "GGG"),   # three distal mismatches
    ]))


def dynamic_shapes():
    return (None, {0: Dim("sites", min=2, max=512)})


def verify_inputs():
    return [
        example_inputs(),                          # on-target skipped; 1-3 mismatch sites scored; NAG PAM down-weighted
        (_onehot(GUIDE), _sites([
            ([(14, "T"), (17, "G")], "TGG"),       # two seed mismatches: abandoned early
            ([(0, "T"), (3, "A"), (5, "G"), (8, "C"), (10, "A")], "AGG"),  # five mismatches: abandoned after the 5th
            ([(6, "A")], "TGA"),                   # PAM does not end in G: rejected
            ([(6, "A")], "TCG"),                   # NCG PAM: scored but zero PAM factor
        ])),                                       # nothing cuts: specificity 100 (early return)
        (_onehot(GUIDE), _sites([([], "AGG"), ([], "CGG")])),  # two perfect matches (duplicated locus): both skipped
    ]
