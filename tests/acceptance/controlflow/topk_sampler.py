"""Top-k sampling decoder (batch 1) with Gumbel noise passed in; stops when the sampled token is EOS."""

import torch
from torch import nn

VOCAB, HIDDEN = 20, 32


class TopKSampler(nn.Module):
    def __init__(self, k: int = 5, max_len: int = 10, eos: int = 3, temperature: float = 0.8):
        super().__init__()
        self.k = k
        self.max_len = max_len
        self.eos = eos
        self.temperature = temperature
        self.ctx = nn.Linear(16, HIDDEN)
        self.embed = nn.Embedding(VOCAB, HIDDEN)
        self.cell = nn.GRUCell(HIDDEN, HIDDEN)
        self.out = nn.Linear(HIDDEN, VOCAB)

    def forward(self, context: torch.Tensor, noise: torch.Tensor) -> torch.Tensor:
        h = torch.tanh(self.ctx(context))
        tok = torch.zeros(1, dtype=torch.long)
        out = []
        step = 0
        while step < self.max_len:
            h = self.cell(self.embed(tok), h)
            logits = self.out(h)[0]
            if self.temperature != 1.0:
                logits = logits / self.temperature
            vals, idx = logits.topk(self.k)
            choice = (vals + noise[step, : self.k]).argmax()
            tok = idx[choice].view(1)
            out.append(tok)
            step += 1
            if tok.item() == self.eos:
                break
        return torch.cat(out)


def model() -> nn.Module:
    torch.manual_seed(0)
    return TopKSampler()


def example_inputs() -> tuple:
    torch.manual_seed(1)
    return (torch.randn(1, 16), torch.randn(10, 5) * 0.1)


def verify_inputs() -> list:
    torch.manual_seed(2)
    return [(torch.randn(1, 16), torch.randn(10, 5) * 3.0)]
