"""Fashion outfit compatibility scorer.

Each garment is an image/attribute feature vector plus a category
(0 top, 1 bottom, 2 shoes, 3 outerwear, 4 accessory). Garments are embedded,
every non-accessory item is scored against the rest of the outfit with a pair
network, and the outfit score is the mean over those anchor items, penalised
when the outfit contains two tops/bottoms/pairs of shoes.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class OutfitCompatibility(nn.Module):
    ACCESSORY = 4

    def __init__(self, feat_dim=16, dim=32, n_categories=5):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(feat_dim, dim), nn.ReLU(), nn.Linear(dim, dim))
        self.cat_emb = nn.Embedding(n_categories, dim)
        self.pair = nn.Sequential(nn.Linear(2 * dim, dim), nn.ReLU(), nn.Linear(dim, 1))
        self.drop = nn.Dropout(0.1)
        self.n_categories = n_categories

    def pair_score(self, a, b):
        return self.pair(torch.cat([a, b], dim=-1)).squeeze(-1)

    def forward(self, feats, cats):
        emb = self.enc(feats) + self.cat_emb(cats)
        emb = self.drop(emb) if self.training else emb
        n = emb.shape[0]
        if n < 3:
            # a two-piece look: one pair decides everything
            s = torch.sigmoid(self.pair_score(emb[0], emb[1]))
            return s, s.expand(n)

        per_item, anchor_scores = [], []
        for i in range(n):
            if cats[i] == self.ACCESSORY:
                per_item.append(emb.new_full((), 0.5))
                continue
            others = torch.cat([emb[:i], emb[i + 1:]])
            s = torch.sigmoid(self.pair_score(emb[i].expand_as(others), others)).mean()
            per_item.append(s)
            anchor_scores.append(s)

        overall = torch.stack(anchor_scores).mean() if anchor_scores else emb.new_full((), 0.5)
        counts = torch.bincount(cats, minlength=self.n_categories)
        if (counts[:3] > 1).any():
            overall = overall * 0.8  # two pairs of shoes is rarely a look
        return overall, torch.stack(per_item)


def model():
    torch.manual_seed(5)
    return OutfitCompatibility().eval()


def _outfit(cats, seed):
    g = torch.Generator().manual_seed(seed)
    cats = torch.tensor(cats, dtype=torch.int64)
    return torch.randn(cats.shape[0], 16, generator=g), cats


def example_inputs():
    return _outfit([0, 1, 2, 4, 3], seed=0)


def dynamic_shapes():
    n = Dim("items", min=2, max=24)
    return ({0: n}, {0: n})


def verify_inputs():
    return [
        example_inputs(),                        # one accessory skipped (continue), no duplicates
        _outfit([0, 1], seed=1),                 # two items -> early return
        _outfit([4, 4, 4, 4], seed=2),           # only accessories: every item continues, empty anchor list
        _outfit([0, 1, 2, 2, 3, 4], seed=3),     # duplicate shoes -> penalty
        _outfit([0, 1, 2], seed=4),              # three items, no accessory: continue never taken
        _outfit([i % 5 for i in range(24)], seed=5),  # max size, many duplicates
    ]
