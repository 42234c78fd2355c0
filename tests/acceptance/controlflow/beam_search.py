"""Beam search decoder with a fixed step budget that stops early once every beam has emitted EOS."""

import torch
from torch import nn

VOCAB, HIDDEN, BEAM = 16, 32, 3


class BeamDecoder(nn.Module):
    def __init__(self, max_len: int = 10, eos: int = 12):
        super().__init__()
        self.max_len = max_len
        self.eos = eos
        self.init = nn.Linear(20, HIDDEN)
        self.embed = nn.Embedding(VOCAB, HIDDEN)
        self.cell = nn.GRUCell(HIDDEN, HIDDEN)
        self.out = nn.Linear(HIDDEN, VOCAB)

    def forward(self, enc: torch.Tensor) -> tuple:
        batch = enc.shape[0]
        h = torch.tanh(self.init(enc)).repeat_interleave(BEAM, dim=0)
        scores = torch.full((batch, BEAM), float("-inf"))
        scores[:, 0] = 0.0
        scores = scores.view(-1)
        tokens = torch.zeros(batch * BEAM, dtype=torch.long)
        finished = torch.zeros(batch * BEAM, dtype=torch.bool)
        eos_row = torch.full((VOCAB,), float("-inf"))
        eos_row[self.eos] = 0.0
        history = []
        for _ in range(self.max_len):
            h = self.cell(self.embed(tokens), h)
            logp = torch.log_softmax(self.out(h), dim=-1)
            logp = torch.where(finished[:, None], eos_row, logp)
            cand = (scores[:, None] + logp).view(batch, BEAM * VOCAB)
            top, flat = cand.topk(BEAM, dim=-1)
            beam = flat // VOCAB
            tok = flat % VOCAB
            sel = (torch.arange(batch)[:, None] * BEAM + beam).view(-1)
            h = h[sel]
            tokens = tok.view(-1)
            finished = finished[sel] | (tokens == self.eos)
            scores = top.view(-1)
            history.append(tokens.view(batch, BEAM))
            if finished.all():
                break
        return scores.view(batch, BEAM), torch.stack(history, dim=-1)


def model() -> nn.Module:
    torch.manual_seed(0)
    return BeamDecoder()


def example_inputs() -> tuple:
    torch.manual_seed(1)
    return (torch.randn(2, 20),)


def verify_inputs() -> list:
    torch.manual_seed(2)
    return [(torch.randn(2, 20) * s,) for s in (0.1, 5.0, 50.0)]
