"""Top-level model calling a submodule whose forward has a while loop driven by a helper method."""

import torch
from torch import nn


class Denoiser(nn.Module):
    def __init__(self, dim=8, max_steps=20):
        super().__init__()
        self.fc = nn.Linear(dim, dim)
        self.max_steps = max_steps

    def too_noisy(self, x):
        return x.abs().max() > 1.0

    def forward(self, x):
        steps = torch.zeros(())
        while self.too_noisy(x) and steps < self.max_steps:
            x = 0.5 * x + 0.1 * torch.tanh(self.fc(x))
            steps = steps + 1
        return x, steps


class Pipeline(nn.Module):
    def __init__(self):
        super().__init__()
        self.pre = nn.Linear(8, 8)
        self.denoise = Denoiser()

    def forward(self, x):
        h = self.pre(x)
        h, steps = self.denoise(h)
        if steps > 3:
            h = h * 0.9
        return h, steps


def model():
    torch.manual_seed(0)
    return Pipeline()


def example_inputs():
    return (torch.randn(2, 8),)


def verify_inputs():
    return [(torch.randn(2, 8) * 0.01,), (torch.randn(2, 8) * 1e9,)]
