"""Extractive summariser: pick sentences under a token budget with maximal marginal relevance
(on-device note summarisation).

Sentence embeddings (N dynamic) are scored for salience by an MLP; very short documents are
returned whole. Otherwise sentences are picked greedily by MMR (salience minus redundancy with
what is already picked), skipping sentences that do not fit the remaining budget and stopping
when the best MMR score turns negative. Output: picked indices in document order.
Tricky: early return on a dynamic size, for over a dynamic size with break/continue, list of
picked embeddings read back each step, data-dependent output length.
"""
import torch
import torch.nn.functional as F
from torch import nn

NEG = -1e4


class Summariser(nn.Module):
    def __init__(self, dim: int = 32):
        super().__init__()
        self.salience = nn.Sequential(nn.Linear(dim * 2, 32), nn.ReLU(), nn.Linear(32, 1))
        self.lam = 0.5
        self.budget = 60.0

    def forward(self, sents, n_tokens):
        # sents: (N, D); n_tokens: (N,) float token counts
        n = sents.shape[0]
        if n <= 3:
            return torch.arange(n), n_tokens.sum()
        e = F.normalize(sents, dim=-1)
        doc = F.normalize(e.mean(dim=0, keepdim=True), dim=-1).expand(n, -1)
        centrality = (e * doc).sum(dim=1)
        sal = 0.5 * torch.sigmoid(4.0 * self.salience(torch.cat([e, doc], dim=1))[:, 0]) + 0.5 * centrality
        available = torch.ones(n, dtype=torch.bool)
        picked = []
        used = torch.zeros(())
        for step in range(n):
            if len(picked) > 0:
                red = (e @ torch.stack([e[i] for i in picked]).t()).amax(dim=1)
            else:
                red = torch.zeros(n)
            mmr = self.lam * sal - (1.0 - self.lam) * red
            mmr = torch.where(available, mmr, torch.full_like(mmr, NEG))
            best = torch.argmax(mmr)
            if mmr[best] < 0:
                break
            available = available & (torch.arange(n) != best)
            if used + n_tokens[best] > self.budget:
                continue  # does not fit; a shorter sentence may
            picked.append(best)
            used = used + n_tokens[best]
        idx = torch.stack(picked) if len(picked) > 0 else torch.zeros(0, dtype=torch.int64)
        return torch.sort(idx).values, used


def model():
    torch.manual_seed(16)
    return Summariser().eval()


def _doc(n, seed, tokens=None, topics=3):
    g = torch.Generator().manual_seed(seed)
    centres = torch.randn(topics, 32, generator=g)
    s = centres[torch.arange(n) % topics] + 0.6 * torch.randn(n, 32, generator=g)
    t = tokens if tokens is not None else (8 + 20 * torch.rand(n, generator=g)).round()
    return s, t


def example_inputs():
    return _doc(10, 0)


def dynamic_shapes():
    n = torch.export.Dim("n", min=2, max=200)
    return ({0: n}, {0: n})


def verify_inputs():
    return [
        _doc(3, 1),                                   # short document: returned whole
        _doc(20, 6, tokens=torch.full((20,), 25.0)),  # long sentences: budget skips
        _doc(6, 0, tokens=torch.full((6,), 100.0)),   # nothing fits
        _doc(8, 0, topics=1),                         # one topic: redundancy stops early
    ]
