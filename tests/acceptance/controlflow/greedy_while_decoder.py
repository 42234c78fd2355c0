"""Greedy seq2seq decoder: GRU cell fed its own argmax until every row emits EOS or max_len is hit."""

import torch
from torch import nn

VOCAB, HIDDEN, MEM = 24, 32, 16


class GreedyDecoder(nn.Module):
    def __init__(self, max_len: int = 10, eos: int = 1):
        super().__init__()
        self.max_len = max_len
        self.eos = eos
        self.bridge = nn.Linear(MEM, HIDDEN)
        self.embed = nn.Embedding(VOCAB, HIDDEN)
        self.cell = nn.GRUCell(HIDDEN, HIDDEN)
        self.out = nn.Linear(HIDDEN, VOCAB)

    def forward(self, memory: torch.Tensor) -> torch.Tensor:
        h = torch.tanh(self.bridge(memory.mean(dim=1)))
        batch = memory.shape[0]
        tok = torch.zeros(batch, dtype=torch.long)  # BOS
        finished = torch.zeros(batch, dtype=torch.bool)
        all_logits = []
        step = 0
        while step < self.max_len and not finished.all():
            h = self.cell(self.embed(tok), h)
            logits = self.out(h)
            tok = logits.argmax(dim=-1)
            tok = torch.where(finished, torch.full_like(tok, self.eos), tok)
            finished = finished | (tok == self.eos)
            all_logits.append(logits)
            step += 1
        return torch.stack(all_logits, dim=1)


def model() -> nn.Module:
    torch.manual_seed(0)
    return GreedyDecoder()


def example_inputs() -> tuple:
    torch.manual_seed(1)
    return (torch.randn(2, 7, MEM),)


def dynamic_shapes():
    return ({1: torch.export.Dim("src", min=2, max=32)},)


def verify_inputs() -> list:
    torch.manual_seed(2)
    return [(torch.randn(2, 12, MEM) * s,) for s in (0.1, 3.0, 10.0)]
