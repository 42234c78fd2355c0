"""Germline SNV caller over a read pileup (per-position A/C/G/T counts).

Positions with low depth or low base quality are skipped; the top alternate allele's fraction
decides hom-alt / het calls; calls inside homopolymer runs with weak allele fraction are filtered
as likely sequencing artefacts. The caller stops after max_calls calls (region budget). A small
learned model produces a per-position quality score.
"""
import torch
import torch.nn as nn


def homopolymer_run(ref, i):
    """Length of the run of identical reference bases around position i."""
    base = ref[i]
    run = 1
    j = i - 1
    while j >= 0 and ref[j] == base:
        run += 1
        j -= 1
    j = i + 1
    while j < ref.shape[0] and ref[j] == base:
        run += 1
        j += 1
    return run


class SNVCaller(nn.Module):
    def __init__(self, min_depth=8, min_qual=20.0, max_calls=6):
        super().__init__()
        self.min_depth = min_depth
        self.min_qual = min_qual
        self.max_calls = max_calls
        self.qual_net = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, counts, ref, qual):
        # counts: (L, 4) float; ref: (L,) int64 in 0..3; qual: (L,) mean base quality
        genotype = torch.zeros(counts.shape[0])
        n_calls = 0
        for i in range(counts.shape[0]):
            depth = counts[i].sum()
            if depth < self.min_depth or qual[i] < self.min_qual:
                genotype[i] = -1.0  # no call
                continue
            alt_counts = counts[i].clone()
            alt_counts[ref[i]] = 0.0
            alt = alt_counts.argmax()
            vaf = alt_counts[alt] / depth
            if vaf < 0.15:
                continue  # reference
            if vaf < 0.35 and homopolymer_run(ref, i) >= 4:
                continue  # weak call inside a homopolymer: artefact
            genotype[i] = 2.0 if vaf > 0.8 else 1.0
            n_calls += 1
            if n_calls >= self.max_calls:
                break
        feats = torch.cat([counts / (counts.sum(1, keepdim=True) + 1.0), qual.unsqueeze(1) / 40.0], dim=1)
        score = torch.sigmoid(self.qual_net(feats)).squeeze(1)
        return genotype, score


def model():
    torch.manual_seed(48019)
    return SNVCaller().eval()


def example_inputs():
    # ref: A A A A C G T T  ; counts per A C G T
    ref = torch.tensor([0, 0, 0, 0, 1, 2, 3, 3])
    counts = torch.tensor([
        [30.0, 0.0, 0.0, 0.0],   # reference
        [20.0, 0.0, 7.0, 0.0],   # 26% G inside AAAA homopolymer -> filtered
        [3.0, 0.0, 1.0, 1.0],    # depth 5 -> no call
        [14.0, 0.0, 0.0, 16.0],  # het A/T (53%)
        [1.0, 2.0, 0.0, 27.0],   # hom-alt T
        [0.0, 0.0, 25.0, 0.0],   # reference, low quality -> no call
        [0.0, 0.0, 8.0, 22.0],   # 27% G outside homopolymer -> het
        [12.0, 0.0, 0.0, 12.0],  # het
    ])
    qual = torch.tensor([35.0, 35.0, 35.0, 33.0, 30.0, 12.0, 31.0, 36.0])
    return counts, ref, qual


def dynamic_shapes():
    L = torch.export.Dim("positions", min=2, max=512)
    return ({0: L}, {0: L}, {0: L})


def verify_inputs():
    many = torch.tensor([[10.0, 0.0, 10.0, 0.0]] * 10)
    return [
        example_inputs(),  # skip (depth / qual), reference, homopolymer filter, het, hom-alt
        (many, torch.tensor([0, 2] * 5), torch.full((10,), 30.0)),  # every position het -> stops at max_calls (break)
        (torch.tensor([[0.0, 10.0, 0.0, 2.0], [0.0, 0.0, 0.0, 10.0]]), torch.tensor([1, 3]),
         torch.tensor([30.0, 30.0])),  # 17% T at a non-homopolymer base (het); reference; min length
    ]
