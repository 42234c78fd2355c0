"""Diffusion-style denoiser: the number of steps is a tensor; per-step images concatenated along channels."""

import torch
from torch import nn


class Denoiser(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Conv2d(2, 2, 3, padding=1)

    def forward(self, img, steps):
        n = int(steps.item())
        frames = [img]
        x = img
        for i in range(n):
            x = x - 0.1 * self.net(x) * (1.0 / (i + 1))
            frames.append(x)
        return torch.cat(frames, dim=1)


def model():
    torch.manual_seed(0)
    return Denoiser()


def example_inputs():
    return (torch.randn(1, 2, 5, 5), torch.tensor(3))


def dynamic_shapes():
    return (None, None)


def verify_inputs():
    return [(torch.randn(1, 2, 5, 5), torch.tensor(0)), (torch.randn(1, 2, 5, 5), torch.tensor(7))]
