"""Byte-pair-encoding tokenizer + bag-of-tokens classifier.

Starting from byte-level symbols, the lowest-ranked mergeable adjacent pair is found
and all its non-overlapping occurrences are merged left to right; this repeats until
no adjacent pair is in the merge table (or a single token is left).  The resulting
token sequence (data-dependent length) is embedded and classified.
"""
import torch
import torch.nn as nn

BASE = 16        # byte-level alphabet (a toy 16-symbol "byte" set)
N_MERGES = 24


class BPEClassifier(nn.Module):
    def __init__(self, dim=16, n_classes=4):
        super().__init__()
        g = torch.Generator().manual_seed(7)
        pairs = []
        while len(pairs) < N_MERGES:
            hi = BASE + len(pairs)
            a = int(torch.randint(0, hi, (1,), generator=g))
            b = int(torch.randint(0, hi, (1,), generator=g))
            if [a, b] not in pairs:
                pairs.append([a, b])
        rank = torch.full((BASE + N_MERGES, BASE + N_MERGES), N_MERGES, dtype=torch.long)
        for r, (a, b) in enumerate(pairs):
            rank[a, b] = r
        self.register_buffer("pairs", torch.tensor(pairs))
        self.register_buffer("rank", rank)
        self.embed = nn.Embedding(BASE + N_MERGES, dim)
        self.head = nn.Linear(dim, n_classes)

    def forward(self, byte_ids):
        seq = byte_ids
        while seq.shape[0] >= 2:
            best = int(self.rank[seq[:-1], seq[1:]].min())
            if best == N_MERGES:
                break
            a = int(self.pairs[best, 0])
            b = int(self.pairs[best, 1])
            out = []
            i = 0
            n = seq.shape[0]
            while i < n:
                if i < n - 1 and int(seq[i]) == a and int(seq[i + 1]) == b:
                    out.append(BASE + best)
                    i += 2
                else:
                    out.append(int(seq[i]))
                    i += 1
            seq = torch.tensor(out)
        logits = self.head(self.embed(seq).mean(dim=0))
        return seq, logits


def model():
    torch.manual_seed(0)
    return BPEClassifier().eval()


def _expand(m, tok):
    """byte decomposition of a (merged) token."""
    if tok < BASE:
        return [tok]
    a, b = m.pairs[tok - BASE].tolist()
    return _expand(m, a) + _expand(m, b)


def example_inputs():
    m = model()
    return (torch.tensor(_expand(m, BASE + 20) + _expand(m, BASE + 9) + [3, 3]),)


def dynamic_shapes():
    return ({0: torch.export.Dim("bytes", min=2, max=1024)},)


def verify_inputs():
    m = model()
    a, b = m.pairs[0].tolist()
    # a byte pair that is not in the merge table at any rank
    free = [(x, y) for x in range(BASE) for y in range(BASE) if x != y and m.rank[x, y] == N_MERGES and m.rank[y, x] == N_MERGES
            and m.rank[x, x] == N_MERGES and m.rank[y, y] == N_MERGES]
    x, y = free[0]
    return [
        (torch.tensor([x, y, x, y]),),                                   # nothing to merge
        (torch.tensor([a, b]),),                                         # one merge -> single token
        (torch.tensor([a, b, a, b, x] + _expand(m, BASE + 17)),),        # repeated pair merged in one pass, more merges
        (torch.tensor(_expand(m, BASE + 23) + [y] + _expand(m, BASE + 12) + [a]),),
    ]
