"""A greedy decoder: feeds back the argmax token for a fixed number of steps, stopping at EOS."""

import torch
from torch import nn

EOS = 0


class GreedyDecoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 16)
        self.cell = nn.GRUCell(16, 16)
        self.proj = nn.Linear(16, 10)

    def forward(self, h):
        token = torch.ones(1, dtype=torch.int64)
        tokens = []
        for _ in range(8):
            h = self.cell(self.emb(token), h)
            token = self.proj(h).argmax(-1)
            tokens.append(token)
            if token[0] == EOS:
                break
        return torch.cat(tokens)


def model():
    torch.manual_seed(3)
    return GreedyDecoder()


def example_inputs():
    return (torch.randn(1, 16),)


def verify_inputs():
    return [(torch.randn(1, 16) * s,) for s in (0.1, 1.0, 5.0, -5.0)] + [
        (torch.full((1, 16), v),) for v in (-3.0, 3.0)
    ]
