"""Greedy text decoder: stop early once every sequence has emitted EOS (break on .all())."""

import torch
from torch import nn


class Decoder(nn.Module):
    def __init__(self, vocab=10, d=16, max_len=8, eos=1):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.cell = nn.GRUCell(d, d)
        self.out = nn.Linear(d, vocab)
        self.max_len = max_len
        self.eos = eos

    def forward(self, h):
        B = h.shape[0]
        tok = torch.zeros(B, dtype=torch.long)
        finished = torch.zeros(B, dtype=torch.bool)
        out = torch.full((B, self.max_len), self.eos, dtype=torch.long)
        for step in range(self.max_len):
            h = self.cell(self.emb(tok), h)
            tok = self.out(h).argmax(-1)
            tok = torch.where(finished, torch.full_like(tok, self.eos), tok)
            out[:, step] = tok
            finished = finished | (tok == self.eos)
            if finished.all():
                break
        return out


def model():
    torch.manual_seed(0)
    return Decoder()


def example_inputs():
    torch.manual_seed(10)
    return (torch.randn(2, 16),)


def verify_inputs():
    m = model()
    # bias EOS strongly via a hidden state aligned with the EOS output row
    w = m.out.weight.detach()[1]
    outs = [(torch.randn(3, 16) * s,) for s in (0.1, 3.0)]
    return [(w.repeat(2, 1) * 50,)] + [(o[0][:2],) for o in outs]
