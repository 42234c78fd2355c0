"""Greedy GRU decoder with EOS stop and max length."""

import torch
from torch import nn

EOS = 1
MAX_LEN = 12


class GreedyDecoder(nn.Module):
    def __init__(self, vocab=16, hidden=24):
        super().__init__()
        self.embed = nn.Embedding(vocab, hidden)
        self.cell = nn.GRUCell(hidden, hidden)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, h0):
        h = h0
        tok = torch.zeros(h0.shape[0], dtype=torch.long)
        tokens = []
        for _ in range(MAX_LEN):
            h = self.cell(self.embed(tok), h)
            tok = self.out(h).argmax(dim=-1)
            tokens.append(tok)
            if (tok == EOS).all():
                break
        return torch.stack(tokens, dim=1)


def model():
    torch.manual_seed(0)
    m = GreedyDecoder()
    with torch.no_grad():
        m.out.bias[EOS] = 0.0
    return m.eval()


def example_inputs():
    return (torch.randn(1, 24),)


def verify_inputs():
    # a hidden state aligned with the EOS row makes the decoder stop early
    m = model()
    eos_dir = m.out.weight[EOS].detach()
    return [(eos_dir.unsqueeze(0) * 50,), (torch.zeros(1, 24),)]
