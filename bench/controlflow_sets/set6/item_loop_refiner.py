"""Iterative refinement whose number of passes is given at run time as a tensor
(`int(n.item())`), e.g. a quality/latency knob; zero passes is allowed."""

import torch
from torch import nn


class RefineBlock(nn.Module):
    def __init__(self, ch: int):
        super().__init__()
        self.conv1 = nn.Conv2d(ch, ch, 3, padding=1)
        self.conv2 = nn.Conv2d(ch, ch, 3, padding=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + 0.1 * self.conv2(torch.relu(self.conv1(x)))


class Refiner(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(3, 8, 3, padding=1)
        self.block = RefineBlock(8)
        self.head = nn.Conv2d(8, 3, 1)

    def forward(self, img: torch.Tensor, passes: torch.Tensor) -> torch.Tensor:
        feat = self.stem(img)
        for _ in range(int(passes.item())):
            feat = self.block(feat)
        return img + self.head(feat)


def model() -> nn.Module:
    torch.manual_seed(0)
    return Refiner().eval()


def example_inputs() -> tuple:
    torch.manual_seed(1)
    return (torch.randn(1, 3, 16, 16), torch.tensor(2))


def verify_inputs() -> list:
    g = torch.Generator().manual_seed(6)
    return [
        (torch.randn(1, 3, 16, 16, generator=g), torch.tensor(0)),
        (torch.randn(1, 3, 16, 16, generator=g), torch.tensor(1)),
        (torch.randn(1, 3, 16, 16, generator=g), torch.tensor(5)),
    ]
