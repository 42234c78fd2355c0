"""LZ77 compressor for telemetry symbol streams, with a learned bit-cost estimate of the parse.

Kind X. Constructs: 1, 2, 3, 4, 5, 7.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class LZ77(nn.Module):
    def __init__(self, window=8, max_len=6, vocab=16):
        super().__init__()
        self.window = window
        self.max_len = max_len
        self.emb = nn.Embedding(vocab, 4)
        self.cost = nn.Linear(6, 1)

    def longest_match(self, seq, i):
        n = seq.shape[0]
        best_len = torch.tensor(0)
        best_off = torch.tensor(0)
        for j in range(max(0, i - self.window), i):
            length = torch.tensor(0)
            while i + length < n and seq[j + length] == seq[i + length] and length < self.max_len:
                length = length + 1
            if length > best_len:
                best_len = length
                best_off = torch.tensor(i - j)
        return best_off, best_len

    def forward(self, seq):
        # seq: (L,) int64 symbols in [0, 16)
        n = seq.shape[0]
        triples = []
        i = 0
        while i < n:
            off, length = self.longest_match(seq, i)
            if length >= 2:
                nxt = seq[i + length] if i + int(length) < n else torch.tensor(-1)
                triples.append(torch.stack([off, length, nxt]))
                i += int(length) + 1
            else:
                triples.append(torch.stack([torch.tensor(0), torch.tensor(0), seq[i]]))
                i += 1
        tri = torch.stack(triples)
        lit = self.emb(tri[:, 2].clamp(min=0))
        feats = torch.cat([lit, tri[:, :2].float() / 8.0], dim=1)
        bits = torch.relu(self.cost(feats)).sum() + 4.0 * tri.shape[0]
        return tri, bits


def model():
    torch.manual_seed(207)
    return LZ77().eval()


def example_inputs():
    return (torch.tensor([1, 2, 3, 1, 2, 3, 1, 2, 9, 4, 4, 4, 4, 4, 5, 1, 2]),)


def dynamic_shapes():
    return ({0: Dim("symbols", min=2, max=64)},)


def verify_inputs():
    return [
        example_inputs(),                                  # literals, matches with next symbol, overlapping run match
        (torch.tensor([7, 8]),),                           # no matches at all
        (torch.tensor([3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3]),),  # long run capped by max_len, match reaching end
        (torch.arange(64) % 5,),                           # periodic stream, window and max_len limits
    ]
