"""A small CNN whose head pools harder when the input image is large (dynamic height and width)."""

import torch
from torch import nn


class ShapeHeadCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU())
        self.fc = nn.Linear(8, 5)

    def forward(self, x):
        x = self.stem(x)
        if x.shape[2] > 16:
            x = nn.functional.max_pool2d(x, 2)
            x = x * 0.5
        else:
            x = x + 1.0
        return self.fc(x.mean(dim=(2, 3)))


def model():
    torch.manual_seed(0)
    return ShapeHeadCNN()


def example_inputs():
    return (torch.randn(1, 3, 12, 12),)


def dynamic_shapes():
    h = torch.export.Dim("h", min=4, max=48)
    return ({2: h, 3: h},)


def verify_inputs():
    return [(torch.randn(1, 3, 8, 8),), (torch.randn(1, 3, 32, 32),)]
