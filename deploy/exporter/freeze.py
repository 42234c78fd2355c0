"""Freeze a module for deployment: eval mode, no gradients, dropout removed, BatchNorm folded into convs.

Folding happens in two ways: adjacent Conv -> BatchNorm pairs inside nn.Sequential are folded in
place (the class and its Python control flow stay intact for the rewriters); when the whole model
traces symbolically (no Python control flow on tensors) torch.fx finds every conv/bn pair, such as
``self.bn1(self.conv1(x))``. Verification compares against the original module, so a wrong fold
would be caught.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

import torch
from torch import nn
from torch.nn.utils.fusion import fuse_conv_bn_eval

_CONVS = (nn.Conv1d, nn.Conv2d, nn.Conv3d)
_BATCHNORMS = (nn.BatchNorm1d, nn.BatchNorm2d, nn.BatchNorm3d)
_DROPOUTS = (nn.Dropout, nn.Dropout1d, nn.Dropout2d, nn.Dropout3d, nn.AlphaDropout, nn.FeatureAlphaDropout)


@dataclass
class FreezeResult:
    module: nn.Module
    folded_batchnorms: int = 0
    removed_dropouts: int = 0
    notes: list[str] = field(default_factory=list)


def _fold_sequential(module: nn.Module) -> int:
    folded = 0
    for seq in [m for m in module.modules() if isinstance(m, nn.Sequential)]:
        names = list(seq._modules)
        for first, second in zip(names, names[1:]):
            conv, bn = seq._modules[first], seq._modules[second]
            if isinstance(conv, _CONVS) and isinstance(bn, _BATCHNORMS) and bn.track_running_stats:
                seq._modules[first] = fuse_conv_bn_eval(conv, bn)
                seq._modules[second] = nn.Identity()
                folded += 1
    return folded


def _remove_dropout(module: nn.Module) -> int:
    removed = 0
    for parent in module.modules():
        for name, child in list(parent._modules.items()):
            if isinstance(child, _DROPOUTS):
                parent._modules[name] = nn.Identity()
                removed += 1
    return removed


def _fold_traced(module: nn.Module) -> tuple[nn.Module, int]:
    """Fold every remaining conv/bn pair with torch.fx when the model traces symbolically."""
    remaining = sum(isinstance(m, _BATCHNORMS) for m in module.modules())
    if not remaining:
        return module, 0
    try:
        from torch.fx.experimental.optimization import fuse

        fused = fuse(module, inplace=False)
    except Exception:
        return module, 0  # Python control flow on tensors: leave the rest to the exporter/ONNX optimizer
    left = sum(isinstance(m, _BATCHNORMS) for m in fused.modules())
    if left == remaining:
        return module, 0
    # Keep the user's class name visible in dumps and reports.
    fused.__class__.__name__ = type(module).__name__
    return fused, remaining - left


def freeze(module: nn.Module) -> FreezeResult:
    """A frozen deep copy of ``module``; the original is left untouched for verification."""
    frozen = copy.deepcopy(module).eval()
    for p in frozen.parameters():
        p.requires_grad_(False)
    result = FreezeResult(frozen)
    result.removed_dropouts = _remove_dropout(frozen)
    with torch.no_grad():
        result.folded_batchnorms = _fold_sequential(frozen)
        frozen, more = _fold_traced(frozen)
    result.module = frozen.eval()
    result.folded_batchnorms += more
    left = sum(isinstance(m, _BATCHNORMS) for m in frozen.modules())
    if left:
        result.notes.append(
            f"{left} BatchNorm layer(s) not next to a conv were kept (folded by the ONNX optimizer)"
        )
    return result
