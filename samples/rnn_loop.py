"""An Elman RNN written as a Python loop over a dynamic sequence length.

torch.onnx.export alone unrolls the loop for the example length and silently fixes it;
deploy's rewriters turn it into torch.while_loop (issue #3).
"""

import torch
from torch import nn

HIDDEN = 32


class RNNLoop(nn.Module):
    def __init__(self):
        super().__init__()
        self.inp = nn.Linear(16, HIDDEN)
        self.rec = nn.Linear(HIDDEN, HIDDEN)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = torch.zeros(x.shape[0], HIDDEN)
        outputs = []
        for t in range(x.shape[1]):
            h = torch.tanh(self.inp(x[:, t]) + self.rec(h))
            outputs.append(h)
        return torch.stack(outputs, dim=1)


def model() -> nn.Module:
    torch.manual_seed(0)
    return RNNLoop()


def example_inputs() -> tuple:
    return (torch.randn(2, 8, 16),)


def dynamic_shapes():
    return ({1: torch.export.Dim("seq", min=1, max=64)},)
