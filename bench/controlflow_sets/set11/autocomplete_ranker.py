"""Query autocomplete ranking on a search box backend (per keystroke, CPU serving).

Candidates (N dynamic) are scored by a small MLP over [query.candidate similarity, log
popularity, prefix-match flag]; then a greedy diversified selection picks up to K suggestions:
take the best remaining candidate, stop when it scores below the floor, skip it when it is a
near-duplicate of an already picked suggestion. Short candidate lists use K = N.
Tricky: branch on a dynamic size, while loop with break/continue on tensor conditions, list of
picked indices read back in the loop, data-dependent output length.
"""
import torch
import torch.nn.functional as F
from torch import nn

K = 5


class AutocompleteRanker(nn.Module):
    def __init__(self, dim: int = 32):
        super().__init__()
        self.q = nn.Linear(dim, dim)
        self.scorer = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 1))
        self.min_score = -2.0
        self.dup_sim = 0.95

    def forward(self, query, cands, popularity, prefix_match):
        # query: (1, D); cands: (N, D); popularity: (N,) counts; prefix_match: (N,) bool
        n = cands.shape[0]
        k = K if n >= K else n
        qe = F.normalize(self.q(query), dim=-1)
        ce = F.normalize(cands, dim=-1)
        sim = (ce @ qe.t())[:, 0]
        feats = torch.stack([sim, torch.log1p(popularity), prefix_match.float()], dim=1)
        scores = 4.0 * self.scorer(feats)[:, 0] + 3.0 * prefix_match.float()
        picked = []
        remaining = scores.clone()
        steps = 0
        while len(picked) < k and steps < n:
            steps += 1
            idx = torch.argmax(remaining)
            if remaining[idx] < self.min_score:
                break
            remaining = torch.where(torch.arange(n) == idx, torch.full_like(remaining, -1e9), remaining)
            is_dup = False
            for j in picked:
                if torch.dot(ce[j], ce[idx]) > self.dup_sim:
                    is_dup = True
                    break
            if is_dup:
                continue
            picked.append(idx)
        if len(picked) == 0:
            return torch.zeros(0, dtype=torch.int64), torch.zeros(0)
        idx_t = torch.stack(picked)
        return idx_t, scores[idx_t]


def model():
    torch.manual_seed(13)
    return AutocompleteRanker().eval()


def _cands(n, seed, dup=False, pop_scale=100.0, prefix_frac=0.3):
    g = torch.Generator().manual_seed(seed)
    c = torch.randn(n, 32, generator=g)
    pop = pop_scale * torch.rand(n, generator=g)
    pm = torch.rand(n, generator=g) < prefix_frac
    if dup:
        # candidates 0 and 1 are the same completion with different casing: both strong
        c[1] = c[0] + 0.01 * torch.randn(32, generator=g)
        pm[:2] = True
        pop[:2] = 0.5
    return torch.randn(1, 32, generator=g), c, pop, pm


def example_inputs():
    return _cands(20, 0)


def dynamic_shapes():
    n = torch.export.Dim("n", min=2, max=512)
    return (None, {0: n}, {0: n}, {0: n})


def verify_inputs():
    return [
        _cands(3, 1),                                        # fewer candidates than K
        _cands(12, 4, dup=True, prefix_frac=0.0),            # near-duplicate skipped
        _cands(8, 3, pop_scale=1e6, prefix_frac=0.0),        # weak candidates: stop at the score floor
        _cands(2, 4, dup=True),                              # only a duplicate pair
    ]
