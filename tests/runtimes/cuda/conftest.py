"""One small AOTInductor CPU package per test session: compiling takes seconds, so it is built once."""

from __future__ import annotations

import pytest
import torch
from torch import nn

from deploy.runtimes.cuda.emit import emit_pt2


class ConvLinear(nn.Module):
    """A small conv + BN + linear net: enough ops to exercise folding and a dynamic batch."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.bn = nn.BatchNorm2d(8)
        self.fc = nn.Linear(8, 5)
        nn.init.uniform_(self.bn.weight, 0.5, 1.5)
        self.bn.running_mean.uniform_(-0.1, 0.1)
        self.bn.running_var.uniform_(0.5, 1.5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc(torch.relu(self.bn(self.conv(x))).mean(dim=(2, 3)))


def small_program() -> tuple[nn.Module, torch.export.ExportedProgram]:
    torch.manual_seed(0)
    model = ConvLinear().eval()
    batch = torch.export.Dim("batch", min=1, max=64)
    example = (torch.randn(2, 3, 16, 16),)
    program = torch.export.export(model, example, dynamic_shapes=({0: batch},), strict=False)
    return model, program


@pytest.fixture(scope="session")
def cpu_package(tmp_path_factory):
    """(eager model, exported program, emit result) for model.cpu.pt2 with a dynamic batch dim."""
    model, program = small_program()
    out = tmp_path_factory.mktemp("pt2") / "model.cpu.pt2"
    return model, program, emit_pt2(program, out, device="cpu")
