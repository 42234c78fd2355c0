"""Diversity re-ranking of search results with maximal marginal relevance (MMR).

Query and candidate documents are projected by a small learned encoder; then up
to k documents are picked greedily by lam * relevance - (1 - lam) * redundancy.
A pick that is a near-duplicate of an already shown document is dropped from
the pool without using a slot; picking stops when the best remaining candidate
is no longer relevant enough.  Returns the picked indices and their relevance.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim


class Encoder(nn.Module):
    def __init__(self, dim=16, out=16):
        super().__init__()
        self.proj = nn.Linear(dim, out)
        with torch.no_grad():
            self.proj.weight.copy_(torch.eye(out, dim) + 0.1 * torch.randn(out, dim))
            self.proj.bias.zero_()

    def forward(self, x):
        return F.normalize(self.proj(x), dim=-1)


class MMRReranker(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = Encoder()
        self.lam = 0.7
        self.dup_sim = 0.95
        self.min_relevance = 0.2

    def forward(self, query, docs, k):
        q = self.encoder(query)
        d = self.encoder(docs)
        relevance = d @ q
        sim = d @ d.T
        pool = torch.ones(docs.shape[0], dtype=torch.bool)
        picked = []
        k = int(k.item())
        while len(picked) < k and pool.any():
            if picked:
                redundancy = sim[:, torch.stack(picked)].amax(dim=1)
            else:
                redundancy = torch.zeros_like(relevance)
            score = self.lam * relevance - (1.0 - self.lam) * redundancy
            score = score.masked_fill(~pool, float("-inf"))
            best = score.argmax()
            if relevance[best] < self.min_relevance:
                break
            pool[best] = False
            if picked and redundancy[best] > self.dup_sim:
                continue  # near-duplicate of something already shown
            picked.append(best)
        if not picked:
            return torch.zeros(0, dtype=torch.long), torch.zeros(0)
        idx = torch.stack(picked)
        return idx, relevance[idx]


def model():
    torch.manual_seed(0)
    return MMRReranker().eval()


def _make(seed, n, k, n_dups=0, relevant=1.0):
    g = torch.Generator().manual_seed(seed)
    query = torch.randn(16, generator=g)
    docs = torch.randn(n, 16, generator=g) + relevant * query
    for j in range(n_dups):
        # the same article syndicated by several outlets
        docs[j] = 3.0 * query + 0.3 * (j + 1) * torch.randn(16, generator=g)
    return query, docs, torch.tensor([k])


def example_inputs():
    return _make(0, 10, 3)


def dynamic_shapes():
    return (None, {0: Dim("docs", min=2, max=64)}, None)


def verify_inputs():
    return [
        _make(1, 12, 4, n_dups=3, relevant=0.5),   # near-duplicates get skipped
        _make(2, 8, 0),                            # k = 0
        _make(3, 6, 1, relevant=2.0),              # a single pick
        _make(7, 3, 5, relevant=3.0),              # pool runs dry before k
        _make(5, 20, 6, relevant=0.3),             # relevance runs out
        _make(6, 10, 3, relevant=-2.0),            # nothing relevant at all
    ]
