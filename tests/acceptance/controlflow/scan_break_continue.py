"""Attentive pooling over a masked sequence: skip fully-masked steps, stop at an end-of-stream flag channel."""

import torch
from torch import nn

FEAT = 10


class StreamPool(nn.Module):
    def __init__(self, stop: float = 0.5):
        super().__init__()
        self.score = nn.Linear(FEAT, 1)
        self.val = nn.Linear(FEAT, 16)
        self.stop = stop

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        acc = x.new_zeros(x.shape[0], 16)
        count = x.new_zeros(())
        for t in range(x.shape[1]):
            if mask[:, t].sum() == 0:
                continue
            w = torch.sigmoid(self.score(x[:, t]))
            acc = acc + w * self.val(x[:, t]) * mask[:, t : t + 1]
            count = count + 1
            if x[:, t, 0].min() > self.stop:
                break
        return acc / count.clamp(min=1.0)


def model() -> nn.Module:
    torch.manual_seed(0)
    return StreamPool()


def example_inputs() -> tuple:
    torch.manual_seed(1)
    x = torch.randn(2, 8, FEAT)
    x[:, :, 0] = -1.0
    mask = torch.ones(2, 8)
    mask[:, 2] = 0.0
    return (x, mask)


def dynamic_shapes():
    t = torch.export.Dim("t", min=2, max=32)
    return ({1: t}, {1: t})


def verify_inputs() -> list:
    torch.manual_seed(2)
    x = torch.randn(2, 12, FEAT)
    x[:, :, 0] = -1.0
    x[:, 5, 0] = 1.0
    mask = torch.ones(2, 12)
    mask[0, 3] = 0.0
    all_masked = torch.zeros(2, 4)
    return [(x, mask), (torch.randn(2, 4, FEAT), all_masked)]
