"""Range-reduction pre-processing: halve the input while its max magnitude exceeds 1 (while on tensor),
then a ternary-selected activation and an early return on all-zero input."""

import torch
from torch import nn


class HalveUntilSmall(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(5, 5)

    def forward(self, x):
        if x.abs().sum() == 0:
            return torch.zeros(x.shape[0], 5), torch.zeros(())
        k = torch.zeros(())
        while x.abs().max() > 1.0:
            x = x / 2
            k = k + 1
        y = self.fc(x)
        y = torch.sigmoid(y) if k > 2 else torch.tanh(y)
        return y, k


def model():
    torch.manual_seed(0)
    return HalveUntilSmall()


def example_inputs():
    return (torch.randn(3, 5) * 3,)


def dynamic_shapes():
    return ({0: torch.export.Dim("batch", min=2, max=32)},)


def verify_inputs():
    return [(torch.zeros(2, 5),), (torch.randn(2, 5) * 0.2,), (torch.randn(4, 5) * 100,)]
