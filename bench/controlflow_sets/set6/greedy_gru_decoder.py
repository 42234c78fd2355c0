"""Greedy seq2seq decoder: a GRU cell fed its own argmax token, stopping early once every
sequence in the batch has produced EOS. Python-int bounded loop with a tensor `break`;
outputs appended to a list and stacked."""

import torch
from torch import nn

VOCAB = 32
EOS = 1
HID = 48


class GreedyDecoder(nn.Module):
    def __init__(self, max_len: int = 12):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, HID)
        self.cell = nn.GRUCell(HID, HID)
        self.out = nn.Linear(HID, VOCAB)
        self.max_len = max_len

    def forward(self, enc: torch.Tensor) -> torch.Tensor:
        h = torch.tanh(enc)
        tok = torch.zeros(enc.shape[0], dtype=torch.long)
        finished = torch.zeros(enc.shape[0], dtype=torch.bool)
        steps = []
        for _ in range(self.max_len):
            h = self.cell(self.embed(tok), h)
            logits = self.out(h)
            tok = logits.argmax(dim=-1)
            tok = torch.where(finished, torch.full_like(tok, EOS), tok)
            steps.append(logits)
            finished = finished | (tok == EOS)
            if finished.all():
                break
        return torch.stack(steps, dim=1)


def model() -> nn.Module:
    torch.manual_seed(0)
    m = GreedyDecoder()
    with torch.no_grad():
        # The EOS logit follows the first hidden unit: a strongly positive encoding ends decoding quickly.
        m.out.weight[EOS].zero_()
        m.out.weight[EOS, 0] = 25.0
        m.out.bias[EOS] = -5.0
    return m.eval()


def example_inputs() -> tuple:
    torch.manual_seed(1)
    return (torch.randn(3, HID),)


def dynamic_shapes():
    return ({0: torch.export.Dim("batch", min=1, max=16)},)


def verify_inputs() -> list:
    g = torch.Generator().manual_seed(3)
    hot = torch.randn(2, HID, generator=g)
    hot[:, 0] = 8.0
    cold = torch.randn(3, HID, generator=g)
    cold[:, 0] = -8.0
    mixed = torch.randn(4, HID, generator=g)
    return [(hot,), (cold,), (mixed,)]
