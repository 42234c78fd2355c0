"""Automated essay scoring for a writing-practice app (kind T).

Input: the essay as token ids (L,).  Too-short submissions get the minimum band
immediately.  Long essays are truncated head+tail (helper).  A small Transformer encoder
(ModuleList of layers) produces a 1..6 band score.  Essays made of very few distinct
tokens (copy-paste spam) are capped at band 2 and flagged.

constructs: 1 (if on tensor), 2 (early return; variable assigned in one branch),
            7 (helpers with control flow), 8 (branches on L), 9 (ModuleList loop, self.training)
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def head_tail_truncate(ids, max_tokens):
    if ids.shape[0] <= max_tokens:
        return ids
    head = max_tokens // 4
    return torch.cat([ids[:head], ids[ids.shape[0] - (max_tokens - head):]])


def distinct_ratio(ids, vocab):
    counts = torch.bincount(ids, minlength=vocab)
    return (counts > 0).sum() / ids.shape[0]


class EssayScorer(nn.Module):
    def __init__(self, vocab=500, dim=32, n_layers=2, min_tokens=20, max_tokens=256,
                 spam_ratio=0.3, word_dropout=0.1):
        super().__init__()
        self.vocab = vocab
        self.embed = nn.Embedding(vocab, dim)
        self.pos = nn.Parameter(0.02 * torch.randn(max_tokens, dim))
        self.layers = nn.ModuleList(
            nn.TransformerEncoderLayer(dim, 4, 2 * dim, dropout=0.0, batch_first=True)
            for _ in range(n_layers))
        self.head = nn.Linear(dim, 1)
        self.min_tokens = min_tokens
        self.max_tokens = max_tokens
        self.spam_ratio = spam_ratio
        self.word_dropout = word_dropout

    def forward(self, ids):
        if ids.shape[0] < self.min_tokens:
            return torch.tensor(1.0), torch.ones(1)

        ids = head_tail_truncate(ids, self.max_tokens)
        x = self.embed(ids) + self.pos[: ids.shape[0]]
        x = F.dropout(x, self.word_dropout) if self.training else x
        x = x.unsqueeze(0)
        for layer in self.layers:
            x = layer(x)
        band = 1.0 + 5.0 * torch.sigmoid(self.head(x.mean(dim=1)).squeeze())

        flagged = torch.zeros(1)
        if distinct_ratio(ids, self.vocab) < self.spam_ratio:
            band = torch.clamp(band, max=2.0)
            flagged = torch.ones(1)
        return band, flagged


def model():
    torch.manual_seed(307)
    return EssayScorer().eval()


def _essay(n, seed, n_distinct=500):
    g = torch.Generator().manual_seed(seed)
    return (torch.randint(0, n_distinct, (n,), generator=g),)


def example_inputs():
    return _essay(120, 0)


def dynamic_shapes():
    return ({0: torch.export.Dim("tokens", min=4, max=1024)},)


def verify_inputs():
    return [
        example_inputs(),           # normal length, diverse vocabulary: scored, not flagged
        _essay(12, 1),              # too short: early return band 1
        _essay(700, 2),             # > 256 tokens: head+tail truncated; diverse
        _essay(90, 3, n_distinct=6),  # spam: 6 distinct tokens / 90 -> capped + flagged
        _essay(400, 4, n_distinct=20),  # truncated and spam
        _essay(256, 5),             # exactly max_tokens: no truncation
    ]
