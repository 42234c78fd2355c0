"""Recommender: cold-start branch on history length, recency weighting for long histories,
then top-k over unseen items.

if/elif/else on a reduction of a padded (-1) history with dynamic length, masking seen items.
"""

import torch
from torch import nn

ITEMS, DIM, TOPK = 100, 16, 5


class Recommender(nn.Module):
    def __init__(self):
        super().__init__()
        self.items = nn.Embedding(ITEMS, DIM)
        self.popularity = nn.Parameter(torch.randn(ITEMS))
        self.user_proj = nn.Linear(DIM, DIM)
        self.long_history = 20

    def forward(self, history):
        valid = history >= 0
        n_valid = valid.sum()
        emb = self.items(history.clamp_min(0)) * valid.unsqueeze(-1)
        if n_valid < 3:
            scores = self.popularity.unsqueeze(0).expand(history.shape[0], -1)
        elif n_valid > self.long_history:
            pos = torch.arange(history.shape[1], dtype=torch.float32)
            w = torch.softmax(pos / history.shape[1] * 4.0, dim=0).view(1, -1, 1)
            user = self.user_proj((emb * w).sum(dim=1))
            scores = user @ self.items.weight.T
        else:
            user = self.user_proj(emb.sum(dim=1) / valid.sum(dim=1, keepdim=True).clamp_min(1))
            scores = user @ self.items.weight.T
        seen = torch.zeros(history.shape[0], ITEMS).scatter(1, history.clamp_min(0), valid.float())
        scores = scores.masked_fill(seen > 0, -1e9)
        vals, idx = scores.topk(TOPK, dim=-1)
        return vals, idx


def model():
    torch.manual_seed(0)
    return Recommender().eval()


def example_inputs():
    return (torch.tensor([[4, 17, 33, 8, 61, 2, -1, -1]]),)


def dynamic_shapes():
    return ({1: torch.export.Dim("history", min=1, max=200)},)


def verify_inputs():
    g = torch.Generator().manual_seed(14)
    return [
        (torch.tensor([[12, -1, -1, -1]]),),  # cold start
        (torch.tensor([[7]]),),  # cold start, length 1
        (torch.randint(0, ITEMS, (1, 10), generator=g),),  # regular history
        (torch.randint(0, ITEMS, (1, 40), generator=g),),  # long history: recency weighting
    ]
