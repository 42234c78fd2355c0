"""Gumbel-max sampling decoder; noise is an input, one step per noise row; pad steps are skipped."""

import torch
from torch import nn

PAD = 0


class SamplingDecoder(nn.Module):
    def __init__(self, vocab=10, hidden=16, temperature=0.7):
        super().__init__()
        self.embed = nn.Embedding(vocab, hidden)
        self.cell = nn.GRUCell(hidden, hidden)
        self.out = nn.Linear(hidden, vocab)
        self.temperature = temperature

    def forward(self, h, noise):
        # noise: (B, T, V) Gumbel noise, T dynamic
        tok = torch.ones(h.shape[0], dtype=torch.long)
        total = torch.zeros(h.shape[0])
        for t in range(noise.shape[1]):
            logits = self.out(h) / self.temperature
            tok = (logits + noise[:, t]).argmax(-1)
            if (tok == PAD).all():
                continue
            total = total + torch.log_softmax(logits, -1).gather(1, tok[:, None]).squeeze(1)
            h = self.cell(self.embed(tok), h)
        return h, total


def model():
    torch.manual_seed(0)
    return SamplingDecoder()


def _noise(t, force_pad_at=()):
    g = torch.Generator().manual_seed(t)
    u = torch.rand(1, t, 10, generator=g).clamp(1e-6, 1 - 1e-6)
    n = -torch.log(-torch.log(u))
    for i in force_pad_at:
        n[:, i, PAD] = 1e4
    return n


def example_inputs():
    return (torch.randn(1, 16), _noise(5))


def dynamic_shapes():
    return (None, {1: torch.export.Dim("T", min=2, max=32)})


def verify_inputs():
    return [(torch.randn(1, 16), _noise(9, force_pad_at=(1, 4))), (torch.randn(1, 16), _noise(2))]
