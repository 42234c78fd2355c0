"""Early-exit CNN (BranchyNet style): after each stage an exit head checks its confidence and
returns as soon as it is confident enough. Return inside a tensor `if` inside a loop over a ModuleList."""

import torch
import torch.nn.functional as F
from torch import nn


class EarlyExitCNN(nn.Module):
    def __init__(self, num_classes: int = 10, threshold: float = 0.9):
        super().__init__()
        chans = [3, 16, 32, 64]
        self.stages = nn.ModuleList(
            nn.Sequential(
                nn.Conv2d(chans[i], chans[i + 1], 3, padding=1), nn.BatchNorm2d(chans[i + 1]), nn.ReLU()
            )
            for i in range(3)
        )
        self.exits = nn.ModuleList(nn.Linear(chans[i + 1], num_classes) for i in range(3))
        self.threshold = threshold

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        logits = None
        for stage, head in zip(self.stages, self.exits):
            x = stage(x)
            logits = head(F.adaptive_avg_pool2d(x, 1).flatten(1))
            conf = F.softmax(logits, dim=-1).max(dim=-1).values
            if conf.min() > self.threshold:
                return logits
            x = F.max_pool2d(x, 2)
        return logits


def model() -> nn.Module:
    torch.manual_seed(0)
    m = EarlyExitCNN()
    with torch.no_grad():
        # Make exit heads respond strongly to the overall input intensity so confidence varies.
        for i, h in enumerate(m.exits):
            h.weight.mul_(4.0 * (i + 1))
    return m.eval()


def example_inputs() -> tuple:
    torch.manual_seed(1)
    return (torch.randn(2, 3, 32, 32),)


def dynamic_shapes():
    return ({0: torch.export.Dim("batch", min=1, max=8)},)


def verify_inputs() -> list:
    g = torch.Generator().manual_seed(2)
    base = torch.randn(1, 3, 32, 32, generator=g)
    return [
        (base * 30.0,),  # confident at the first exit
        (base * 15.0,),  # confident at the second exit
        (base * 5.0,),  # confident only at the last exit (return inside the if)
        (torch.randn(4, 3, 32, 32, generator=g) * 0.01,),  # never confident: return after the loop
        (torch.randn(2, 3, 32, 32, generator=g),),
    ]
