"""Greedy token decoder: up to max_len steps (a tensor), stops early when every sequence emitted EOS."""

import torch
from torch import nn

EOS = 0


class GreedyDecoder(nn.Module):
    def __init__(self, vocab=6, d=8):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.cell = nn.GRUCell(d, d)
        self.out = nn.Linear(d, vocab)

    def forward(self, h, max_len):
        tok = torch.ones(h.shape[0], dtype=torch.long)
        logits_all = []
        for _ in range(int(max_len.item())):
            h = self.cell(self.emb(tok), h)
            logits = self.out(h)
            tok = logits.argmax(dim=-1)
            logits_all.append(logits)
            if (tok == EOS).all():
                break
        return torch.stack(logits_all, dim=1)


def model():
    torch.manual_seed(0)
    m = GreedyDecoder()
    with torch.no_grad():
        m.out.bias[EOS] = 1.0
    return m


def example_inputs():
    return (torch.randn(2, 8), torch.tensor(5))


def dynamic_shapes():
    return ({0: torch.export.Dim("batch", min=2, max=16)}, None)


def verify_inputs():
    g = torch.Generator().manual_seed(1)
    h = torch.randn(3, 8, generator=g)
    # stops on EOS after 1, 2 and 4 steps; cut off by max_len before EOS
    return [
        (h * 0.3, torch.tensor(10)),
        (h, torch.tensor(10)),
        (h * 3, torch.tensor(10)),
        (h * 3, torch.tensor(2)),
    ]
