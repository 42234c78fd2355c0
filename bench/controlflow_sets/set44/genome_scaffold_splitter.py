"""Genome assembly QC: recursively split scaffolds at N-gaps into contigs, then embed each contig.

Kind X. Constructs: 1, 2, 5, 6, 7, 8.
"""
import torch
import torch.nn as nn
from torch.export import Dim

N_BASE = 4  # A C G T N -> 0 1 2 3 4


def split_at_gap(seq, max_len):
    """Split a scaffold at the N nearest its middle; recurse until every piece is short enough."""
    if seq.shape[0] <= max_len:
        return [seq]
    is_gap = seq == N_BASE
    if not is_gap.any():
        # no gap to cut at: hard split in the middle
        mid = seq.shape[0] // 2
        return split_at_gap(seq[:mid], max_len) + split_at_gap(seq[mid:], max_len)
    pos = torch.nonzero(is_gap).squeeze(1)
    mid = seq.shape[0] // 2
    cut = int(pos[(pos - mid).abs().argmin()])
    pieces = []
    left, right = seq[:cut], seq[cut + 1:]
    if left.shape[0] > 0:
        pieces += split_at_gap(left, max_len)
    if right.shape[0] > 0:
        pieces += split_at_gap(right, max_len)
    return pieces


def strip_ns(contig):
    keep = contig != N_BASE
    return contig[keep]


class ScaffoldSplitter(nn.Module):
    def __init__(self, max_len=24):
        super().__init__()
        self.max_len = max_len
        self.emb = nn.Embedding(5, 8)
        self.kmer = nn.Conv1d(8, 8, 3, padding=1)

    def forward(self, scaffold):
        # scaffold: (L,) int64 bases
        contigs = []
        for piece in split_at_gap(scaffold, self.max_len):
            c = strip_ns(piece)
            if c.shape[0] < 3:
                continue  # too short to embed
            contigs.append(c)
        if len(contigs) == 0:
            return torch.zeros(1, 8), torch.zeros(1)
        embs, lens = [], []
        for c in contigs:
            h = torch.relu(self.kmer(self.emb(c).t().unsqueeze(0)))[0]
            embs.append(h.mean(-1))
            lens.append(torch.tensor(float(c.shape[0])))
        return torch.stack(embs), torch.stack(lens)


def model():
    torch.manual_seed(210)
    return ScaffoldSplitter().eval()


def _scaffold(spec, seed):
    g = torch.Generator().manual_seed(seed)
    parts = []
    for kind, n in spec:
        if kind == "N":
            parts.append(torch.full((n,), N_BASE))
        else:
            parts.append(torch.randint(0, 4, (n,), generator=g))
    return torch.cat(parts)


def example_inputs():
    return (_scaffold([("N", 1), ("A", 30), ("N", 1), ("A", 2)], 1),)


def dynamic_shapes():
    return ({0: Dim("bases", min=2, max=512)},)


def verify_inputs():
    return [
        example_inputs(),                                 # gap split, then cut at a leading N (empty piece), hard split, 2-base contig skipped
        (_scaffold([("A", 20)], 2),),
        (_scaffold([("A", 30), ("N", 1)], 6),),           # cut at the trailing N -> empty right piece                     # short: no split
        (_scaffold([("A", 100)], 3),),                    # no gaps: hard splits, recursion depth 3
        (_scaffold([("N", 2)], 4),),                      # all N -> no contigs, early return
        (_scaffold([("A", 200), ("N", 10), ("A", 302)], 5),),  # max length, mixed gap and hard splits
    ]
