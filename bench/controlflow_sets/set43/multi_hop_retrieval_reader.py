"""Multi-hop retrieval reader for a question-answering assistant.

At each hop the query is encoded, candidate passages are ranked by cosine
similarity, the best passage not visited yet is read, and the query is
expanded with it. A passage whose "answer span" detector fires ends the
search. Hops are capped by a static budget; a question with no passage
passing the relevance floor is answered "unanswerable".
Constructs: 1, 2, 3, 5, 6, 7, 9
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def rank_passages(query, passages):
    sims = F.cosine_similarity(query[None, :], passages[:, 1:], dim=1)
    return sims, torch.argsort(sims, descending=True, stable=True)


class SpanDetector(nn.Module):
    """Answer-bearing passages carry a flag feature (dim 0); the head scores span quality."""

    def __init__(self, dim):
        super().__init__()
        self.span = nn.Linear(dim, 2)

    def forward(self, passage):
        logits = self.span(passage[1:])
        if passage[0] > 0.5:
            return torch.tensor(True), logits
        return torch.tensor(False), logits


class MultiHopReader(nn.Module):
    def __init__(self, dim=16, max_hops=3, min_relevance=0.2):
        super().__init__()
        self.max_hops = max_hops
        self.min_relevance = min_relevance
        self.query_enc = nn.Linear(dim, dim)
        self.detector = SpanDetector(dim)
        with torch.no_grad():   # start near identity so retrieval is meaningful
            self.query_enc.weight.copy_(torch.eye(dim) + 0.01 * torch.randn(dim, dim))
            self.query_enc.bias.zero_()

    def forward(self, question, passages):
        query = question
        visited = []
        path = []
        span_logits = torch.zeros(2)
        found = torch.tensor(False)
        for hop in range(self.max_hops):
            q = self.query_enc(query)
            sims, order = rank_passages(q, passages)
            pick = -1
            for idx in order.tolist():
                if idx in visited:
                    continue
                if sims[idx] < self.min_relevance:
                    break
                pick = idx
                break
            if pick < 0:
                break
            visited.append(pick)
            path.append(sims[pick])
            found, span_logits = self.detector(passages[pick])
            if found:
                break
            query = query + passages[pick, 1:]

        if len(path) == 0 or not found:
            return torch.zeros(2), torch.zeros(1), torch.tensor(0.0)
        return span_logits, torch.stack(path), torch.tensor(1.0)


def model():
    torch.manual_seed(7)
    return MultiHopReader().eval()


def _passages(n, seed, chain=(), answer_at=None):
    """Question along topic axis e0. Distractor passages live in the last 12
    dims (unrelated topics). Passage chain[k] links topic k to topic k+1
    (e_k + 1.5 e_{k+1}), so it only becomes the best match after the query has
    been expanded with the previous hops."""
    g = torch.Generator().manual_seed(seed)
    p = torch.zeros(n, 17)
    p[:, 5:] = torch.randn(n, 12, generator=g)
    q = torch.zeros(16)
    q[0] = 1.0
    for k, i in enumerate(chain):
        p[i, 1:] = 0.0
        p[i, 1 + k] = 1.0
        p[i, 2 + k] = 1.5
    if answer_at is not None:
        p[answer_at, 0] = 1.0
    return q, p


def example_inputs():
    return _passages(12, 0, chain=(3, 7), answer_at=7)


def dynamic_shapes():
    return (None, {0: torch.export.Dim("n_passages", min=2, max=64)})


def verify_inputs():
    return [
        example_inputs(),                                     # hop 1 reads p3, hop 2 skips visited p3 (continue), reads p7 -> found, break
        _passages(8, 1, chain=(2,), answer_at=2),             # answer on the first hop
        _passages(10, 2, chain=(1, 4, 6)),                    # no answer anywhere: all hops used, unanswerable
        _passages(6, 3),                                      # every passage below relevance floor: inner break, outer break, empty path
        _passages(3, 4, chain=(0,)),                          # hop 1 reads p0 (no answer); hop 2: p0 visited, rest irrelevant -> break, unanswerable
    ]
