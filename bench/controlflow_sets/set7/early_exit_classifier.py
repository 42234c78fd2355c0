"""Early-exit transformer-ish classifier: an exit head after each block, return as soon as
the softmax confidence exceeds a threshold.

return inside a tensor `if` inside a loop over zip(ModuleList, ModuleList); dynamic sequence length.
"""

import torch
from torch import nn


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.norm = nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))

    def forward(self, x):
        return x + self.ff(self.norm(x))


class EarlyExit(nn.Module):
    def __init__(self, d=32, classes=5, depth=3):
        super().__init__()
        self.blocks = nn.ModuleList([Block(d) for _ in range(depth)])
        self.exits = nn.ModuleList([nn.Linear(d, classes) for _ in range(depth)])

    def forward(self, x, threshold):
        logits = None
        for i, (blk, head) in enumerate(zip(self.blocks, self.exits)):
            x = blk(x)
            logits = head(x.mean(dim=1))
            if torch.softmax(logits, dim=-1).max() > threshold:
                return logits, torch.tensor(i)
        return logits, torch.tensor(len(self.blocks))


def model():
    torch.manual_seed(0)
    return EarlyExit().eval()


def example_inputs():
    torch.manual_seed(1)
    return (torch.randn(1, 12, 32), torch.tensor(0.9))


def dynamic_shapes():
    return ({1: torch.export.Dim("seq", min=1, max=128)}, None)


def confidences(m, x):
    out = []
    with torch.no_grad():
        for blk, head in zip(m.blocks, m.exits):
            x = blk(x)
            out.append(torch.softmax(head(x.mean(dim=1)), dim=-1).max())
    return out


def verify_inputs():
    m = model()
    torch.manual_seed(16)
    cases = [(torch.randn(1, 7, 32), torch.tensor(0.0)), (torch.randn(1, 20, 32), torch.tensor(1.0))]
    for _ in range(200):  # find an input whose first exit is not confident but a later one is
        x = torch.randn(1, 9, 32) * 2
        c = confidences(m, x)
        if c[1] > c[0] + 0.02 or c[2] > c[0] + 0.02:
            j = 1 if c[1] > c[0] + 0.02 else 2
            cases.append((x, (c[0] + c[j]) / 2))
            break
    return cases  # exit 0, no exit (runs all blocks), later exit
