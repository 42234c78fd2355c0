"""News headline dedupe for a feed server: headlines (token ids, variable count) are
embedded, then a greedy single pass keeps a headline unless it is a near-duplicate of an
already kept one. Empty (all-padding) rows are skipped. Returns the kept row indices
(data-dependent size) and, for each row, the kept row it was merged into (-1 if empty)."""

import torch
from torch import nn
import torch.nn.functional as F

VOCAB = 500
PAD = 0
DUP_SIM = 0.8


class HeadlineEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, 64)
        self.proj = nn.Linear(64, 64, bias=False)

    def forward(self, ids):
        valid = (ids != PAD).float().unsqueeze(-1)
        e = (self.emb(ids) * valid).sum(1) / valid.sum(1).clamp_min(1.0)
        return F.normalize(self.proj(e), dim=-1)


class Dedupe(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = HeadlineEncoder()

    def forward(self, ids: torch.Tensor):
        # ids: (N, L) int64, rows in publication order
        e = self.enc(ids)
        kept_vecs = []
        kept_idx = []
        assign = []
        for i in range(ids.shape[0]):
            if (ids[i] == PAD).all():
                assign.append(torch.tensor(-1))
                continue
            if len(kept_vecs) > 0:
                sims = torch.stack(kept_vecs) @ e[i]
                if sims.max() > DUP_SIM:
                    j = torch.argmax(sims)
                    assign.append(torch.stack(kept_idx)[j])
                    continue
            kept_vecs.append(e[i])
            kept_idx.append(torch.tensor(i))
            assign.append(torch.tensor(i))
        if len(kept_idx) == 0:
            return torch.zeros(0, dtype=torch.long), torch.stack(assign)
        return torch.stack(kept_idx), torch.stack(assign)


def model() -> nn.Module:
    torch.manual_seed(0)
    return Dedupe().eval()


def _feed(rows, seed):
    """rows: list of ('new', n_tokens) | ('dup', row, n_changed) | ('empty',)"""
    g = torch.Generator().manual_seed(seed)
    out = []
    for r in rows:
        x = torch.zeros(12, dtype=torch.long)
        if r[0] == "new":
            x[: r[1]] = torch.randint(1, VOCAB, (r[1],), generator=g)
        elif r[0] == "dup":
            x = out[r[1]].clone()
            for k in range(r[2]):
                x[k] = int(torch.randint(1, VOCAB, (1,), generator=g))
        out.append(x)
    return (torch.stack(out),)


def example_inputs() -> tuple:
    return _feed([("new", 10), ("new", 8), ("dup", 0, 1), ("new", 12), ("dup", 1, 0)], 0)


def dynamic_shapes():
    return ({0: torch.export.Dim("n", min=2, max=32)},)


def verify_inputs() -> list:
    return [
        _feed([("empty",), ("empty",)], 1),                                   # nothing to keep
        _feed([("empty",), ("new", 9), ("dup", 1, 5), ("dup", 1, 2), ("empty",), ("new", 6)], 2),
        _feed([("new", 4 + (k % 8)) for k in range(32)], 3),                  # all distinct
        _feed([("new", 11), ("dup", 0, 1)], 4),
    ]
