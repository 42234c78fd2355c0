"""Freezing: eval mode, no grad, BatchNorm folded into the preceding conv, dropout removed."""

from __future__ import annotations

import torch
from torch import nn

from deploy.exporter.freeze import freeze


class Block(nn.Module):
    """conv/bn as attributes (not a Sequential): folded through torch.fx."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.bn = nn.BatchNorm2d(8)
        self.head = nn.Sequential(nn.Conv2d(8, 4, 1), nn.BatchNorm2d(4), nn.ReLU(), nn.Dropout(0.5))

    def forward(self, x):
        return self.head(torch.relu(self.bn(self.conv(x))))


def _randomise_bn(module: nn.Module) -> None:
    for m in module.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.running_mean.uniform_(-1, 1)
            m.running_var.uniform_(0.5, 2)
            nn.init.uniform_(m.weight, 0.5, 2)


def test_folds_every_batchnorm_and_removes_dropout():
    torch.manual_seed(0)
    model = Block()
    _randomise_bn(model)
    model.train()  # freezing must not depend on the user having called eval()
    result = freeze(model)
    assert result.folded_batchnorms == 2
    assert result.removed_dropouts == 1
    frozen = result.module
    assert not any(isinstance(m, (nn.BatchNorm2d, nn.Dropout)) for m in frozen.modules())
    assert not frozen.training
    assert all(not p.requires_grad for p in frozen.parameters())
    x = torch.randn(2, 3, 16, 16)
    model.eval()
    with torch.no_grad():
        torch.testing.assert_close(frozen(x), model(x), rtol=1e-5, atol=1e-5)


def test_control_flow_model_keeps_its_class_and_folds_sequential_pairs():
    class Branchy(nn.Module):
        def __init__(self):
            super().__init__()
            self.body = nn.Sequential(nn.Conv2d(3, 4, 3), nn.BatchNorm2d(4))

        def forward(self, x):
            y = self.body(x)
            if y.mean() > 0:  # tensor control flow: torch.fx cannot trace this
                return y
            return -y

    model = Branchy()
    _randomise_bn(model)
    result = freeze(model)
    assert isinstance(result.module, Branchy)
    assert result.folded_batchnorms == 1
    assert model.body[1].__class__ is nn.BatchNorm2d  # the original is untouched


def test_traced_fold_keeps_the_users_class_and_source_lines():
    """Folding in place keeps forward's source, so errors and check-ops still point at user lines."""
    model = Block()
    _randomise_bn(model)
    frozen = freeze(model).module
    assert type(frozen) is Block
    ep = torch.export.export(frozen, (torch.randn(1, 3, 8, 8),), strict=False)
    traces = [n.meta.get("stack_trace") or "" for n in ep.graph.nodes if n.op == "call_function"]
    assert any(__file__ in t for t in traces)
