"""Translation-memory lookup in front of a small neural MT decoder (CAT tool).

Kind T.  Constructs: 1, 2, 3.
The source segment is encoded and compared with every TM entry.  An exact hit
returns the stored translation straight away; several fuzzy hits are merged
by similarity weight; a single fuzzy hit is fused with the NMT output; with no
hit at all the NMT output is returned unchanged.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim

LQ = Dim("query_tokens", min=2, max=64)
N = Dim("tm_entries", min=2, max=256)
D = 32


class SegmentEncoder(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.proj = nn.Linear(d, d)

    def forward(self, pooled):
        # TM entries are stored as mean-pooled token embeddings
        return self.proj(pooled)


class TMFuzzyMatcher(nn.Module):
    def __init__(self, d=D, exact_thr=0.97, fuzzy_thr=0.70):
        super().__init__()
        self.encoder = SegmentEncoder(d)
        self.nmt = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))
        self.fuse = nn.Linear(2 * d, d)
        self.exact_thr = exact_thr
        self.fuzzy_thr = fuzzy_thr

    def forward(self, src_tokens, tm_src, tm_tgt):
        q = F.normalize(self.encoder(src_tokens.mean(dim=0)), dim=-1)
        keys = F.normalize(self.encoder(tm_src), dim=-1)
        sims = keys @ q
        decoded = self.nmt(src_tokens).mean(dim=0)

        best, idx = sims.max(dim=0)
        if best > self.exact_thr:
            return tm_tgt[idx], sims                   # 100% match: reuse as is

        strong = sims > self.fuzzy_thr
        if not strong.any():
            return decoded, sims

        if strong.sum() > 1:
            w = torch.softmax(torch.where(strong, sims, torch.full_like(sims, -1e4)) * 10.0, dim=0)
            retrieved = (w.unsqueeze(-1) * tm_tgt).sum(dim=0)
        else:
            retrieved = tm_tgt[idx]
        out = self.fuse(torch.cat([retrieved, decoded], dim=-1))
        return out, sims


def model():
    torch.manual_seed(63003)
    return TMFuzzyMatcher().eval()


def _case(lq, n, seed, exact=(), fuzzy=()):
    g = torch.Generator().manual_seed(seed)
    src = torch.randn(lq, D, generator=g)
    tm_src = torch.randn(n, D, generator=g)
    tm_tgt = torch.randn(n, D, generator=g)
    for i in exact:
        tm_src[i] = src.mean(dim=0)
    for i in fuzzy:
        tm_src[i] = src.mean(dim=0) + 0.9 * torch.randn(D, generator=g) * src.mean(dim=0).abs().mean()
    return src, tm_src, tm_tgt


def example_inputs():
    return _case(12, 40, 1, fuzzy=(7,))


def dynamic_shapes():
    return ({0: LQ}, {0: N}, {0: N})


def verify_inputs():
    return [
        example_inputs(),                      # one fuzzy hit: fuse with tm_tgt[idx]
        _case(5, 16, 2, exact=(3,)),           # exact hit: early return of the stored translation
        _case(20, 100, 3),                     # no hit: `not strong.any()` -> NMT output
        _case(2, 8, 4, fuzzy=(1, 6)),          # two fuzzy hits: similarity-weighted merge
    ]
