"""MobileNetV2 (Sandler et al. 2018), standard inverted-residual config, random weights.

Input 1x3x224x224, 1000 classes. Written out here so nothing is downloaded.
"""

import torch
from torch import nn


def conv_bn_relu(cin: int, cout: int, kernel: int, stride: int, groups: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, kernel, stride, kernel // 2, groups=groups, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU6(inplace=True),
    )


class InvertedResidual(nn.Module):
    def __init__(self, cin: int, cout: int, stride: int, expand: int):
        super().__init__()
        hidden = cin * expand
        layers = [] if expand == 1 else [conv_bn_relu(cin, hidden, 1, 1)]
        layers += [
            conv_bn_relu(hidden, hidden, 3, stride, groups=hidden),
            nn.Conv2d(hidden, cout, 1, 1, 0, bias=False),
            nn.BatchNorm2d(cout),
        ]
        self.block = nn.Sequential(*layers)
        self.use_residual = stride == 1 and cin == cout

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = self.block(x)
        return x + out if self.use_residual else out


# (expansion t, output channels c, repeats n, first stride s)
CONFIG = [
    (1, 16, 1, 1),
    (6, 24, 2, 2),
    (6, 32, 3, 2),
    (6, 64, 4, 2),
    (6, 96, 3, 1),
    (6, 160, 3, 2),
    (6, 320, 1, 1),
]


class MobileNetV2(nn.Module):
    def __init__(self, num_classes: int = 1000):
        super().__init__()
        layers = [conv_bn_relu(3, 32, 3, 2)]
        cin = 32
        for t, c, n, s in CONFIG:
            for i in range(n):
                layers.append(InvertedResidual(cin, c, s if i == 0 else 1, t))
                cin = c
        layers.append(conv_bn_relu(cin, 1280, 1, 1))
        self.features = nn.Sequential(*layers)
        self.classifier = nn.Sequential(nn.Dropout(0.2), nn.Linear(1280, num_classes))
        for m in self.modules():
            if isinstance(m, nn.BatchNorm2d):
                # Non-trivial statistics so that BatchNorm folding is really exercised.
                nn.init.uniform_(m.weight, 0.5, 1.5)
                nn.init.uniform_(m.bias, -0.1, 0.1)
                m.running_mean.uniform_(-0.1, 0.1)
                m.running_var.uniform_(0.5, 1.5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.features(x)
        x = x.mean(dim=(2, 3))
        return self.classifier(x)


def model() -> nn.Module:
    torch.manual_seed(0)
    return MobileNetV2()


def example_inputs() -> tuple:
    return (torch.randn(1, 3, 224, 224),)
