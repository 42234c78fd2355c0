"""Greedy decoding: a static-length loop that appends a token per step and breaks when every
sequence emitted EOS, so the output length depends on the data."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded


class GreedyDecoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(6, 8)
        self.cell = nn.GRUCell(8, 8)
        self.out = nn.Linear(8, 6)
        self.max_len = 7
        self.eos = 3

    def forward(self, h):
        tok = torch.full((h.shape[0],), 1, dtype=torch.long)
        tokens = []
        for _ in range(self.max_len):
            h = self.cell(self.emb(tok), h)
            tok = self.out(h).argmax(-1)
            tokens.append(tok)
            if (tok == self.eos).all():
                break
        return torch.stack(tokens, 1)


def _inputs_of_lengths(lengths: tuple[int, ...]) -> list[tuple]:
    """Hidden states that make the seeded decoder stop after each of ``lengths`` tokens."""
    model, generator, found = seeded(GreedyDecoder)(), torch.Generator().manual_seed(1), {}
    with torch.no_grad():
        for _ in range(2000):
            h = torch.randn(1, 8, generator=generator) * 3
            found.setdefault(model(h).shape[1], (h,))
            if all(n in found for n in lengths):
                break
    return [found[n] for n in lengths if n in found]


CASES = [
    Case(
        "greedy_decode_append_break",
        seeded(GreedyDecoder),
        (torch.randn(1, 8),),
        _inputs_of_lengths((1, 3, 5, 7)),
        constructs=("for->while_loop",),
    ),
]
