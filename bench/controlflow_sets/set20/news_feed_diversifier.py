"""News-feed re-ranker with category diversity.

A learned ranker scores candidate articles; for each of k feed slots the
highest-ranked unused article from a not-yet-shown category is taken (helper
returns from inside its scan, falling back to the best article). Filling stops
when the pick is below the quality floor; shown categories reset once all
have appeared. Output: picked article ids [K] (K may be 0).
"""
import torch
import torch.nn as nn


def first_fresh(avail, cats, used):
    for j in avail:
        if not used[cats[j]]:
            return j
    return avail[0]


class FeedDiversifier(nn.Module):
    def __init__(self, n_cats=3, floor=-0.5):
        super().__init__()
        self.n_cats, self.floor = n_cats, floor
        self.ranker = nn.Linear(8, 1)

    def forward(self, feats, cats, k):  # feats: [N, 8]; cats: [N] int64; k: [] int64
        scores = self.ranker(feats).squeeze(-1) + feats[:, 0]
        order = scores.argsort(descending=True)
        taken = torch.zeros(scores.shape[0], dtype=torch.bool)
        used = torch.zeros(self.n_cats, dtype=torch.bool)
        picks = []
        for slot in range(int(k.item())):
            avail = order[~taken[order]]
            if avail.shape[0] == 0:
                break
            j = first_fresh(avail, cats, used)
            if scores[j] < self.floor:
                break
            picks.append(j)
            taken = taken | (torch.arange(scores.shape[0]) == j)
            used = used | (torch.arange(self.n_cats) == cats[j])
            if used.all():
                used = torch.zeros_like(used)
        if len(picks) == 0:
            return torch.zeros(0, dtype=torch.long)
        return torch.stack(picks)


def _cands(quality, cats, seed):
    g = torch.Generator().manual_seed(seed)
    f = 0.1 * torch.randn(len(quality), 8, generator=g)
    f[:, 0] = torch.tensor(quality)
    return f, torch.tensor(cats)


def model():
    torch.manual_seed(0)
    return FeedDiversifier().eval()


def example_inputs():
    f, c = _cands([2.0, 1.7, 1.5, 1.1, 0.8, 0.4, 0.1], [0, 0, 1, 1, 2, 0, 1], 0)
    return (f, c, torch.tensor(5))


def dynamic_shapes():
    N = torch.export.Dim("articles", min=2, max=48)
    return ({0: N}, {0: N}, None)


def verify_inputs():
    f1, c1 = _cands([1.0, 0.5], [2, 2], 1)
    f2, c2 = _cands([1.2, 0.9, 0.6, -1.5, 0.3], [0, 0, 1, 2, 1], 2)
    return [
        (f1, c1, torch.tensor(0)),    # no slots
        (f1, c1, torch.tensor(4)),    # runs out of articles; same-category fallback
        (f2, c2, torch.tensor(5)),    # quality floor stops the feed
    ]
