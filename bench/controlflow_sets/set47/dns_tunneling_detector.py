"""DNS tunnelling detector scoring each query name of a capture window.

Constructs: 1 (entropy threshold), 2 (helper early return), 5 (for over the
dynamic number of queries, append + stack), 6 (continue for whitelisted
names), 7 (helper with its own branch).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB = 40  # 0 = pad, 1 = whitelisted-zone marker, 2..39 = characters


def label_entropy(row):
    counts = F.one_hot(row, VOCAB).sum(0)[2:].float()
    total = counts.sum()
    if total == 0:
        return torch.zeros(())
    p = counts / total
    return -(p * torch.log2(p.clamp_min(1e-12))).sum()


class DnsTunnelDetector(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, 12, padding_idx=0)
        self.head = nn.Linear(13, 1)

    def forward(self, queries):
        # queries: [N, 24] character ids, right padded with 0
        scores = []
        for i in range(queries.shape[0]):
            row = queries[i]
            if row[0] == 1:
                # internal zone: never flagged
                scores.append(torch.zeros(1))
                continue
            ent = label_entropy(row)
            s = self.head(torch.cat([self.emb(row).mean(0), ent.view(1) / 4.0]))
            if ent > 3.5:
                s = s + 2.0
            scores.append(torch.sigmoid(s))
        scores = torch.stack(scores)
        return scores, scores.max().reshape(1)


def model():
    torch.manual_seed(2)
    return DnsTunnelDetector().eval()


def _queries(kinds, seed):
    g = torch.Generator().manual_seed(seed)
    rows = []
    for k in kinds:
        if k == "rand":      # base32-like payload, entropy ~4.2 bits
            rows.append(torch.randint(2, VOCAB, (24,), generator=g))
        elif k == "word":    # repetitive normal host name, entropy ~1.6 bits
            rows.append(torch.tensor([5, 6, 7] * 6 + [0] * 6))
        elif k == "white":
            rows.append(torch.tensor([1] + [9, 10, 11, 12] * 4 + [0] * 7))
        else:                # empty slot
            rows.append(torch.zeros(24, dtype=torch.long))
    return torch.stack(rows)


def example_inputs():
    return (_queries(["word", "rand", "white", "empty", "word", "rand"], 0),)


def dynamic_shapes():
    return ({0: torch.export.Dim("queries", min=2, max=32)},)


def verify_inputs():
    return [
        example_inputs(),                       # all paths: normal, tunnel, whitelist(continue), empty(helper return)
        (_queries(["word", "word"], 1),),       # min size, no continue, entropy low
        (_queries(["rand", "white"], 2),),      # high entropy + whitelist
        (_queries(["rand", "word", "white", "empty"] * 8, 3),),  # max size
    ]
