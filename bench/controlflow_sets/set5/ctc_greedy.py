"""CTC greedy decoder over frames; skips blank frames (continue on tensor)."""

import torch
from torch import nn


class CTCHead(nn.Module):
    def __init__(self, feat=20, vocab=12):
        super().__init__()
        self.proj = nn.Linear(feat, vocab)
        self.blank = 0

    def forward(self, feats):
        logits = self.proj(feats).log_softmax(-1)
        B, T, V = logits.shape
        emb = torch.zeros(B, V)
        outs = []
        for t in range(feats.shape[1]):
            frame = logits[:, t]
            best = frame.argmax(-1)
            if (best == self.blank).all():
                outs.append(emb)
                continue
            emb = 0.5 * emb + frame.exp()
            outs.append(emb)
        return torch.stack(outs, dim=1)


def model():
    torch.manual_seed(0)
    m = CTCHead()
    with torch.no_grad():
        m.proj.bias[0] = 0.0
    return m


def example_inputs():
    return (torch.randn(2, 6, 20),)


def dynamic_shapes():
    return ({1: torch.export.Dim("T", min=2, max=64)},)


def verify_inputs():
    torch.manual_seed(1)
    x = torch.randn(2, 9, 20)
    # force blank frames: make feature that drives class 0 huge
    m = model()
    w0 = m.proj.weight[0].detach()
    x[:, 2] = w0 * 50
    x[:, 5] = w0 * 50
    return [(x,), (torch.randn(2, 3, 20),)]
