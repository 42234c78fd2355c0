"""Few-step denoising sampler (diffusion-style) with a runtime step count tensor: `while t > 0`
on a tensor counter, an if/else inside the loop, and a final step that differs."""

import torch
from torch import nn


class EpsNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(4, 16, 3, padding=1)
        self.conv2 = nn.Conv2d(16, 3, 3, padding=1)

    def forward(self, x: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
        tmap = torch.ones_like(x[:, :1]) * t.float() / 10.0
        return self.conv2(torch.relu(self.conv1(torch.cat([x, tmap], dim=1))))


class Denoiser(nn.Module):
    def __init__(self):
        super().__init__()
        self.eps = EpsNet()

    def forward(self, x: torch.Tensor, steps: torch.Tensor) -> torch.Tensor:
        t = steps.clone()
        while t > 0:
            noise = self.eps(x, t)
            if t == 1:
                x = x - noise
            elif t % 2 == 0:
                x = x - 0.5 * noise
            else:
                x = 0.9 * x - 0.3 * noise
            t = t - 1
        return torch.clamp(x, -3.0, 3.0)


def model() -> nn.Module:
    torch.manual_seed(0)
    return Denoiser().eval()


def example_inputs() -> tuple:
    torch.manual_seed(1)
    return (torch.randn(1, 3, 16, 16), torch.tensor(4))


def dynamic_shapes():
    return ({2: torch.export.Dim("h", min=8, max=64), 3: torch.export.Dim("w", min=8, max=64)}, None)


def verify_inputs() -> list:
    g = torch.Generator().manual_seed(17)
    return [
        (torch.randn(1, 3, 16, 16, generator=g), torch.tensor(0)),  # no steps
        (torch.randn(1, 3, 8, 24, generator=g), torch.tensor(1)),  # final-step branch only
        (torch.randn(1, 3, 32, 16, generator=g), torch.tensor(5)),  # odd, even and final branches
    ]
