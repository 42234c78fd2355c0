"""Retrieval-augmented generation: pack relevant retrieved passages into a token budget, pool a context vector."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def masked_prefix_mean(tokens, count):
    # tokens [L, D]; only the first `count` tokens are real
    n = int(count.item())
    if n > tokens.shape[0]:
        n = tokens.shape[0]
    return tokens[:n].mean(0)


class ContextPacker(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.q_proj = nn.Linear(dim, dim)
        self.p_proj = nn.Linear(dim, dim)
        self.fuse = nn.Sequential(nn.Linear(2 * dim, dim), nn.GELU(), nn.Linear(dim, dim))
        self.no_context = nn.Parameter(torch.zeros(dim))
        self.min_relevance = 0.3

    def forward(self, query, passages, token_counts, budget):
        # query [D], passages [P, L, D], token_counts [P] int64, budget [1] int64
        q = F.normalize(self.q_proj(query), dim=-1)
        summaries = F.normalize(self.p_proj(passages.mean(1)), dim=-1)
        relevance = summaries @ q
        used = torch.zeros((), dtype=torch.int64)
        picked = []
        for i in range(passages.shape[0]):
            if relevance[i] < self.min_relevance:
                continue
            if used + token_counts[i] > budget[0]:
                break
            picked.append(masked_prefix_mean(passages[i], token_counts[i]))
            used = used + token_counts[i]
        if len(picked) == 0:
            context = self.no_context
        else:
            context = torch.stack(picked).mean(0)
        return self.fuse(torch.cat([query, context])), used


def model():
    torch.manual_seed(0)
    m = ContextPacker()
    with torch.no_grad():
        # the projections start near identity so that relevance follows the raw embeddings
        m.q_proj.weight.copy_(torch.eye(16) + 0.05 * torch.randn(16, 16))
        m.p_proj.weight.copy_(torch.eye(16) + 0.05 * torch.randn(16, 16))
        m.q_proj.bias.zero_()
        m.p_proj.bias.zero_()
    return m.eval()


def _case(seed, alignments, counts, length, budget):
    g = torch.Generator().manual_seed(seed)
    query = torch.randn(16, generator=g)
    qdir = query / query.norm()
    ps = []
    for a in alignments:
        noise = torch.randn(length, 16, generator=g)
        noise = noise - (noise @ qdir)[:, None] * qdir   # orthogonal to the query
        ps.append(a * 3.0 * qdir + 0.5 * noise)
    return (query, torch.stack(ps), torch.tensor(counts, dtype=torch.int64),
            torch.tensor([budget], dtype=torch.int64))


def example_inputs():
    return _case(0, [1.0, -1.0, 0.8, 0.9], [10, 12, 7, 9], 12, 30)


def dynamic_shapes():
    p = torch.export.Dim("passages", min=2, max=16)
    length = torch.export.Dim("passage_len", min=2, max=64)
    return (None, {0: p, 1: length}, {0: p}, None)


def verify_inputs():
    return [
        _case(1, [1.0, -0.8, 0.9, 0.7, 1.0], [8, 5, 20, 6, 9], 16, 40),   # skip one, break on budget
        _case(2, [-1.0, -0.9, 0.0], [4, 4, 4], 8, 50),                    # nothing relevant
        _case(3, [0.9, 1.0], [30, 10], 24, 200),                          # truncated count (30 > 24)
        _case(4, [0.8, 0.9, 1.0], [25, 5, 5], 32, 20),                    # first passage already too big
    ]
