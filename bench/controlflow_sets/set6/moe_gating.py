"""Top-1 mixture-of-experts layer: loops over an nn.ModuleList of experts (plain Python) and only
runs an expert when some token was routed to it (`if mask.any():`)."""

import torch
from torch import nn

DIM = 32


class MoE(nn.Module):
    def __init__(self, n_experts: int = 4):
        super().__init__()
        self.router = nn.Linear(DIM, n_experts)
        self.experts = nn.ModuleList(
            nn.Sequential(nn.Linear(DIM, 64), nn.GELU(), nn.Linear(64, DIM)) for _ in range(n_experts)
        )
        self.norm = nn.LayerNorm(DIM)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        # x: [tokens, DIM]
        probs = torch.softmax(self.router(self.norm(x)), dim=-1)
        weight, choice = probs.max(dim=-1)
        out = torch.zeros_like(x)
        for e, expert in enumerate(self.experts):
            mask = choice == e
            if mask.any():
                out = out + torch.where(mask[:, None], expert(x) * weight[:, None], torch.zeros_like(x))
        return x + out


def model() -> nn.Module:
    torch.manual_seed(0)
    return MoE().eval()


def example_inputs() -> tuple:
    torch.manual_seed(1)
    return (torch.randn(10, DIM),)


def dynamic_shapes():
    return ({0: torch.export.Dim("tokens", min=1, max=256)},)


def verify_inputs() -> list:
    g = torch.Generator().manual_seed(8)
    return [
        (torch.randn(1, DIM, generator=g),),  # one token: only one expert runs
        (torch.randn(64, DIM, generator=g),),  # many tokens: all experts run
    ]
