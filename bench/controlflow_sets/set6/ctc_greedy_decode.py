"""CTC greedy decoding on top of a small acoustic model (batch 1 streaming style): loop over the
dynamic number of frames, `continue` on blanks and on repeats, count emitted tokens per class."""

import torch
from torch import nn

VOCAB = 12
BLANK = 0


class CTCDecoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(20, 32, 3, padding=1)
        self.proj = nn.Linear(32, VOCAB)

    def forward(self, feats: torch.Tensor) -> torch.Tensor:
        # feats: [1, 20, T]
        h = torch.relu(self.conv(feats)).transpose(1, 2)
        ids = self.proj(h).argmax(dim=-1)[0]
        counts = torch.zeros(VOCAB)
        prev = torch.tensor(-1)
        for t in range(ids.shape[0]):
            cur = ids[t]
            if cur == BLANK:
                prev = cur
                continue
            if cur == prev:
                continue
            counts = counts + nn.functional.one_hot(cur, VOCAB).float()
            prev = cur
        return counts


def model() -> nn.Module:
    torch.manual_seed(0)
    m = CTCDecoder()
    with torch.no_grad():
        m.proj.bias[BLANK] += 0.15
    return m.eval()


def example_inputs() -> tuple:
    torch.manual_seed(1)
    return (torch.randn(1, 20, 30),)


def dynamic_shapes():
    return ({2: torch.export.Dim("frames", min=1, max=1000)},)


def verify_inputs() -> list:
    g = torch.Generator().manual_seed(11)
    return [
        (torch.randn(1, 20, 1, generator=g),),
        (torch.randn(1, 20, 40, generator=g),),
        (torch.randn(1, 20, 200, generator=g),),
    ]
