"""Greedy overlap assembler for short sequencing reads (amplicon QC tool).

Reads (A/C/G/T = 0..3, N = 4) are assembled greedily: starting from the first
clean read, the unused read with the longest exact suffix/prefix overlap to the
contig end is appended, until no read overlaps. Reads with ambiguous bases are
skipped. A small CNN then scores the assembled contig (e.g. chimera
likelihood).
Constructs: 1, 2, 4, 5, 6, 7
"""
import torch
import torch.nn as nn


def suffix_prefix_overlap(contig, read, min_overlap):
    """Longest k >= min_overlap with contig[-k:] == read[:k]; 0 if none."""
    max_k = min(contig.shape[0], read.shape[0] - 1)
    for k in range(max_k, min_overlap - 1, -1):
        if (contig[-k:] == read[:k]).all():
            return k
    return 0


class ContigScorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(5, 8)
        self.conv = nn.Conv1d(8, 16, 5, padding=2)
        self.out = nn.Linear(16, 1)

    def forward(self, contig):
        h = torch.relu(self.conv(self.embed(contig).T[None]))
        return torch.sigmoid(self.out(h.mean(dim=2)))[0, 0]


class GreedyAssembler(nn.Module):
    def __init__(self, min_overlap=4):
        super().__init__()
        self.min_overlap = min_overlap
        self.scorer = ContigScorer()

    def forward(self, reads):
        n_reads = reads.shape[0]
        clean = ~(reads == 4).any(dim=1)
        if not clean.any():
            return torch.full((1,), 4, dtype=torch.long), torch.zeros(n_reads), torch.zeros(())

        start = int(clean.long().argmax())
        contig = reads[start]
        used = torch.zeros(n_reads, dtype=torch.bool)
        used[start] = True
        remaining = clean & ~used
        while remaining.any():
            best_k, best_i = 0, -1
            for i in range(n_reads):
                if not remaining[i]:
                    continue
                k = suffix_prefix_overlap(contig, reads[i], self.min_overlap)
                if k > best_k:
                    best_k, best_i = k, i
            if best_i < 0:
                break          # nothing overlaps the contig end any more
            contig = torch.cat([contig, reads[best_i, best_k:]])
            used[best_i] = True
            remaining = clean & ~used

        return contig, used.float(), self.scorer(contig)


def model():
    torch.manual_seed(8)
    return GreedyAssembler().eval()


def _genome(n, seed):
    return torch.randint(0, 4, (n,), generator=torch.Generator().manual_seed(seed))


def _tile_reads(genome, read_len, step, order):
    reads = [genome[s:s + read_len] for s in range(0, genome.shape[0] - read_len + 1, step)]
    return torch.stack([reads[i] for i in order])


def example_inputs():
    g = _genome(40, 0)
    # 12-mers every 4 bases (overlap 8), shuffled; one read carries an N
    reads = _tile_reads(g, 12, 4, [0, 3, 1, 5, 2, 4, 6])
    reads[6, 5] = 4
    return (reads,)


def dynamic_shapes():
    return ({0: torch.export.Dim("n_reads", min=2, max=16), 1: torch.export.Dim("read_len", min=6, max=32)},)


def verify_inputs():
    g1 = _genome(60, 1)
    r_two = _tile_reads(g1, 20, 10, [0, 1])
    unrelated = torch.stack([_genome(10, 2), _genome(10, 3), _genome(10, 4)])
    all_n = torch.full((3, 8), 4)
    first_n = _tile_reads(_genome(30, 5), 10, 5, [0, 1, 2])
    first_n[0, 0] = 4
    return [
        example_inputs(),          # while runs 5 times; continue on used/ambiguous reads; N read never used
        (r_two,),                  # two reads: one merge, loop ends because none remain
        (unrelated,),              # no overlaps: helper returns 0, break on first pass
        (all_n,),                  # every read ambiguous -> early return
        (first_n,),                # first read ambiguous: start from read 1, read 0 skipped
        (first_n[:2],),            # only one clean read: while loop runs 0 times
    ]
