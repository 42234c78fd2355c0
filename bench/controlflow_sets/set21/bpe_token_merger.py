"""On-device BPE tokenizer + bag-of-tokens encoder: merge the best-ranked adjacent pair until none is left."""
import torch
from torch import nn
from torch.export import Dim

BASE = 16
MERGES = [(1, 2), (3, 4), (16, 5), (6, 6), (18, 17), (7, 8), (2, 1), (9, 10), (20, 19), (11, 3), (22, 22), (12, 13)]
NO_MERGE = 1 << 20


class BpeEncoder(nn.Module):
    def __init__(self, dim=16, max_merges=6):
        super().__init__()
        self.max_merges = max_merges
        V = BASE + len(MERGES)
        rank = torch.full((V, V), NO_MERGE, dtype=torch.long)
        new_id = torch.zeros(V, V, dtype=torch.long)
        for r, (a, b) in enumerate(MERGES):  # static
            rank[a, b] = r
            new_id[a, b] = BASE + r
        self.register_buffer("rank", rank)
        self.register_buffer("new_id", new_id)
        self.emb = nn.Embedding(V, dim)
        self.proj = nn.Linear(dim, dim)

    def _pair_ranks(self, ids):
        if ids.shape[0] < 2:
            return torch.full((1,), NO_MERGE, dtype=torch.long)
        return self.rank[ids[:-1], ids[1:]]

    def forward(self, tokens):
        L = tokens.shape[0]
        ids = tokens
        ranks = self._pair_ranks(ids)
        n_merges = 0
        while bool((ranks < NO_MERGE).any()):
            if n_merges >= self.max_merges:
                break  # latency budget
            key = ranks * 1024 + torch.arange(ranks.shape[0])
            p = int(torch.argmin(key))
            merged = self.new_id[ids[p], ids[p + 1]].view(1)
            ids = torch.cat([ids[:p], merged, ids[p + 2:]])
            n_merges += 1
            ranks = self._pair_ranks(ids)
        pooled = torch.tanh(self.proj(self.emb(ids).mean(0)))
        padded = torch.cat([ids, torch.full((L - ids.shape[0],), -1, dtype=torch.long)])
        return pooled, padded


def model():
    torch.manual_seed(0)
    return BpeEncoder().eval()


def example_inputs():
    return (torch.tensor([1, 2, 5, 3, 4, 0, 6, 6, 7, 8, 9, 10, 15], dtype=torch.long),)


def verify_inputs():
    return [
        (torch.tensor([0, 15, 14, 0, 13], dtype=torch.long),),           # nothing mergeable
        (torch.tensor([1, 2, 5, 3, 4], dtype=torch.long),),              # collapses to a single token
        (torch.tensor([2, 1, 6, 6, 6, 6, 11, 3, 4, 12, 13, 0, 1, 2, 1], dtype=torch.long),),
    ]


def dynamic_shapes():
    return ({0: Dim("chars", min=2, max=128)},)
