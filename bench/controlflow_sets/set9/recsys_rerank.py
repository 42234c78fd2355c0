"""On-device recommendation re-ranker (news / short-video feed).

Two-tower scoring of a dynamic number of candidates for one user, masking already
seen items. Large candidate sets are pre-filtered to the best `prefilter` by the cheap
dot score before the MLP re-ranker (branch on the dynamic size); tiny sets are
returned as-is. The final list is chosen greedily with MMR (relevance vs. diversity),
looping over k = min(k, #candidates). If every candidate was already seen, the
popularity prior alone is used.
Outputs: chosen candidate indices (k,) int64 and their scores (k,).
"""

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim


class Reranker(nn.Module):
    def __init__(self, dim=16, k=5, prefilter=32, mmr_lambda=0.7):
        super().__init__()
        self.user_tower = nn.Sequential(nn.Linear(dim, 32), nn.ReLU(), nn.Linear(32, 16))
        self.item_tower = nn.Sequential(nn.Linear(dim, 32), nn.ReLU(), nn.Linear(32, 16))
        self.rerank = nn.Sequential(nn.Linear(32 + 1, 32), nn.ReLU(), nn.Linear(32, 1))
        self.k = k
        self.prefilter = prefilter
        self.mmr_lambda = mmr_lambda

    def forward(self, user, items, seen, popularity):
        u = F.normalize(self.user_tower(user), dim=-1)  # (1, 16)
        v = F.normalize(self.item_tower(items), dim=-1)  # (N, 16)
        dot = (v @ u.T).squeeze(1)  # (N,)
        if seen.all():
            score = popularity
        else:
            score = torch.where(seen > 0, torch.full_like(dot, -1e4), dot)
        idx = torch.arange(items.shape[0])
        if items.shape[0] > self.prefilter:
            score, top = score.topk(self.prefilter)
            idx, v = idx[top], v[top]
        if not seen.all():
            feats = torch.cat([v, u.expand(v.shape[0], -1), score.unsqueeze(1)], dim=1)
            score = torch.where(score > -1e3, score + self.rerank(feats).squeeze(1), score)
        k = self.k if v.shape[0] >= self.k else v.shape[0]
        chosen, chosen_scores = [], []
        sim_to_chosen = torch.full_like(score, -1.0)
        taken = torch.zeros_like(score, dtype=torch.bool)
        for _ in range(k):
            mmr = self.mmr_lambda * score - (1 - self.mmr_lambda) * sim_to_chosen
            mmr = torch.where(taken, torch.full_like(mmr, -1e9), mmr)
            j = mmr.argmax()
            chosen.append(idx[j])
            chosen_scores.append(score[j])
            taken[j] = True
            sim_to_chosen = torch.maximum(sim_to_chosen, v @ v[j])
        return torch.stack(chosen), torch.stack(chosen_scores)


def model():
    torch.manual_seed(0)
    return Reranker().eval()


def _req(seed, n, seen_frac):
    g = torch.Generator().manual_seed(seed)
    items = torch.randn(n, 16, generator=g)
    seen = (torch.rand(n, generator=g) < seen_frac).to(torch.uint8)
    return (torch.randn(1, 16, generator=g), items, seen, torch.rand(n, generator=g))


def example_inputs():
    return _req(1, 30, 0.2)


def dynamic_shapes():
    n = Dim("n_items", min=2, max=1024)
    return {"user": None, "items": {0: n}, "seen": {0: n}, "popularity": {0: n}}


def verify_inputs():
    return [
        _req(2, 200, 0.3),  # > prefilter: topk pre-filtering
        _req(3, 3, 0.0),  # fewer candidates than k
        _req(4, 12, 1.01),  # everything seen: popularity fallback
        _req(5, 80, 1.01),  # everything seen and large
    ]
