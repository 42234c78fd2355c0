"""A loop over the model's modules (it stays Python) that appends a value per module and stops on a
tensor test: each iteration's value is kept by its flag (passes/continues.py, breaks._python_loop)."""

import torch
from torch import nn

from tests.rewriters.models.case import Case


class StagedQuantizer(nn.Module):
    """Residual quantization: each stage snaps the residual to its nearest code and records the
    code; stages stop once the residual is small (or at the stage limit, a config value)."""

    def __init__(self):
        super().__init__()
        self.books = nn.ParameterList([nn.Parameter(torch.randn(8, 3) * 0.5**s) for s in range(4)])
        self.max_stages = 3

    def forward(self, x):
        residual = x
        codes = []
        for stage, book in enumerate(self.books):
            if stage >= self.max_stages:
                break
            idx = ((residual[:, None, :] - book[None]) ** 2).sum(-1).argmin(dim=1)
            residual = residual - book[idx]
            codes.append(idx)
            if residual.abs().max() < 0.3:
                break
        return residual, torch.stack(codes, dim=1)


def _model() -> nn.Module:
    torch.manual_seed(0)
    return StagedQuantizer().eval()


def _frames(stages: int, noise: float, seed: int, n: int = 5) -> tuple:
    model = _model()
    g = torch.Generator().manual_seed(seed)
    x = torch.zeros(n, 3)
    for s in range(stages):
        x = x + model.books[s].detach()[torch.randint(0, 8, (n,), generator=g)]
    return (x + noise * torch.randn(n, 3, generator=g),)


CASES = [
    Case(
        "a_loop_over_modules_appending_per_module_until_a_tensor_break",
        _model,
        _frames(1, 0.01, 0),
        [_frames(2, 0.01, 1), _frames(0, 3.0, 2, 4), _frames(1, 0.01, 3, 6)],
        ({0: torch.export.Dim("frames", min=2, max=24)},),
        constructs=("if->cond",),
    ),
]
