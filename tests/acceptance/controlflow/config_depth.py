"""Config-driven encoder: flags, eval-mode self.training, ModuleList loops, static sizes. Plain Python only."""

from dataclasses import dataclass

import torch
from torch import nn

EXPECT_NO_REWRITES = True  # every branch and loop here is plain Python: no graph ops


@dataclass
class Config:
    dim: int = 64
    depth: int = 4
    active_depth: int = 3
    use_pos: bool = True
    pre_norm: bool = False
    act: str = "gelu"
    max_len: int = 64


class FFBlock(nn.Module):
    def __init__(self, cfg: Config):
        super().__init__()
        self.cfg = cfg
        self.norm = nn.LayerNorm(cfg.dim)
        self.fc1 = nn.Linear(cfg.dim, 2 * cfg.dim)
        self.fc2 = nn.Linear(2 * cfg.dim, cfg.dim)
        self.drop = nn.Dropout(0.2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.norm(x) if self.cfg.pre_norm else x
        h = self.fc1(h)
        h = torch.nn.functional.gelu(h) if self.cfg.act == "gelu" else torch.relu(h)
        if self.training:
            h = self.drop(h)
        h = x + self.fc2(h)
        return h if self.cfg.pre_norm else self.norm(h)


class ConfigEncoder(nn.Module):
    def __init__(self, cfg: Config):
        super().__init__()
        self.cfg = cfg
        self.pos = nn.Parameter(torch.randn(cfg.max_len, cfg.dim) * 0.02)
        self.blocks = nn.ModuleList([FFBlock(cfg) for _ in range(cfg.depth)])
        self.proj = nn.Linear(cfg.dim, 32)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.cfg.use_pos:
            x = x + self.pos[: x.shape[1]]
        for i, block in enumerate(self.blocks):
            if i >= self.cfg.active_depth:
                break
            x = block(x)
        if x.shape[-1] == 64:
            x = self.proj(x)
        if x.dim() == 3 and x.shape[0] > 1:
            x = x - x.mean(dim=0, keepdim=True)
        return x


def model() -> nn.Module:
    torch.manual_seed(0)
    return ConfigEncoder(Config())


def example_inputs() -> tuple:
    torch.manual_seed(1)
    return (torch.randn(2, 16, 64),)


def dynamic_shapes():
    return ({1: torch.export.Dim("seq", min=2, max=64)},)


def verify_inputs() -> list:
    torch.manual_seed(2)
    return [(torch.randn(2, 64, 64),), (torch.randn(2, 3, 64),)]
