"""Deletion-based sentence compression for headlines / notifications: a BiGRU
scores token importance, then the least important deletable token is dropped
until the length budget is met. Verbs and negations are never dropped, and
dropping a noun also drops the determiners / adjectives right before it.

Kind X; constructs 1, 2, 3, 4, 6, 7, 8."""
import torch
import torch.nn as nn
from torch.export import Dim

DET, ADJ, NOUN, VERB, NEG, PUNCT, OTHER = range(7)


class ImportanceScorer(nn.Module):
    def __init__(self, d_tok=16):
        super().__init__()
        self.tag_emb = nn.Embedding(7, 8)
        self.gru = nn.GRU(d_tok + 8, 16, batch_first=True, bidirectional=True)
        self.out = nn.Linear(32, 1)

    def forward(self, tok, tags):
        h, _ = self.gru(torch.cat([tok, self.tag_emb(tags)], dim=-1)[None])
        return self.out(h[0]).squeeze(-1)


class SentenceCompressor(nn.Module):
    def __init__(self):
        super().__init__()
        torch.manual_seed(417)
        self.scorer = ImportanceScorer()
        self.ratio = 0.6
        self.min_len = 3

    def protected(self, tags):
        return (tags == VERB) | (tags == NEG)

    def drop_modifiers(self, keep, tags, i):
        """Deleting a noun also deletes the determiners / adjectives right before it."""
        j = i - 1
        while j >= 0 and keep[j] and (tags[j] == DET or tags[j] == ADJ):
            keep[j] = False
            j -= 1
        return keep

    def forward(self, tok, tags):
        # tok: [L, 16] token embeddings, tags: [L] int64 coarse POS tags
        L = tok.shape[0]
        if L <= self.min_len:
            return tok, torch.ones(L, dtype=tok.dtype)
        scores = self.scorer(tok, tags)
        budget = max(self.min_len, int(L * self.ratio))
        keep = torch.ones(L, dtype=torch.bool)
        prot = self.protected(tags)
        while keep.sum() > budget:
            cand = keep & ~prot
            if not cand.any():
                break                     # only verbs / negations left
            i = int(scores.masked_fill(~cand, torch.finfo(scores.dtype).max).argmin())
            keep[i] = False
            if tags[i] == NOUN:
                keep = self.drop_modifiers(keep, tags, i)
        return tok[keep], keep.to(tok.dtype)


def model():
    return SentenceCompressor().eval()


def _sent(tags, seed):
    g = torch.Generator().manual_seed(seed)
    t = torch.tensor(tags, dtype=torch.int64)
    return torch.randn(len(tags), 16, generator=g), t


# "The old mayor did not sign the new budget plan on Friday ."
HEADLINE = [DET, ADJ, NOUN, VERB, NEG, VERB, DET, ADJ, NOUN, NOUN, OTHER, NOUN, PUNCT]


def example_inputs():
    return _sent(HEADLINE, 9)


def dynamic_shapes():
    L = Dim("tokens", min=2, max=48)
    return ({0: L}, {0: L})


def verify_inputs():
    g = torch.Generator().manual_seed(9)
    tags48 = torch.randint(0, 7, (48,), generator=g).tolist()
    return [
        example_inputs(),                                   # "mayor" and "plan" dropped with 2 modifiers each
        _sent(HEADLINE, 10),                                # other embeddings: "mayor" dropped with 1 modifier
        _sent([NOUN, VERB], 2),                             # min length: already short, returned as is
        _sent([DET, NOUN, VERB], 3),                        # exactly min_len: early return
        _sent([VERB, NEG, VERB, VERB, NEG, VERB], 4),       # nothing deletable -> break
        _sent([NOUN, ADJ, OTHER, NOUN, VERB, PUNCT, ADJ, ADJ, NOUN], 1),   # sentence-initial noun dropped (j < 0)
        _sent(tags48, 13),                                  # max length, random tags
    ]
