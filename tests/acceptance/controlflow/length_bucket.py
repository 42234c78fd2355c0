"""Length bucketing before an encoder: long sequences are pooled 2x, very short ones padded to 8."""

import torch
import torch.nn.functional as F
from torch import nn

DIM = 16


class BucketedEncoder(nn.Module):
    def __init__(self, long_len: int = 32, short_len: int = 8):
        super().__init__()
        self.long_len = long_len
        self.short_len = short_len
        self.enc = nn.Sequential(nn.Linear(DIM, 32), nn.ReLU(), nn.Linear(32, DIM))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if x.shape[1] > self.long_len:
            x = F.avg_pool1d(x.transpose(1, 2), kernel_size=2, stride=2).transpose(1, 2)
        elif x.shape[1] < self.short_len:
            x = F.pad(x, (0, 0, 0, self.short_len - x.shape[1]))
        return self.enc(x)


def model() -> nn.Module:
    torch.manual_seed(0)
    return BucketedEncoder()


def example_inputs() -> tuple:
    torch.manual_seed(1)
    return (torch.randn(2, 12, DIM),)


def dynamic_shapes():
    return ({1: torch.export.Dim("seq", min=2, max=64)},)


def verify_inputs() -> list:
    torch.manual_seed(2)
    return [(torch.randn(2, 40, DIM),), (torch.randn(2, 33, DIM),), (torch.randn(2, 3, DIM),)]
