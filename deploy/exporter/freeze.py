"""Freeze a module for deployment: eval mode, no gradients, dropout removed, BatchNorm folded into convs.

Folding always happens in place on the user's module, so its class, forward and source lines stay
intact for the rewriters and for error messages: adjacent Conv -> BatchNorm pairs inside
nn.Sequential, and, when the model traces symbolically (no Python control flow on tensors), every
pair torch.fx finds, such as ``self.bn1(self.conv1(x))``. Verification compares against the original
module, so a wrong fold would be caught.
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


def _conv_bn_pairs(module: nn.Module) -> list[tuple[str, str]]:
    """(conv path, bn path) pairs where bn consumes only that conv's output, found by torch.fx.

    The graph is only read: folding happens on the user's own module, so its class, forward and
    source lines (which error messages and check-ops point at) stay as written.
    """
    try:
        graph = torch.fx.symbolic_trace(module).graph
    except Exception:
        return []  # Python control flow on tensors: only the Sequential pairs are folded
    calls: dict[str, int] = {}
    for node in graph.nodes:
        if node.op == "call_module":
            calls[node.target] = calls.get(node.target, 0) + 1
    modules = dict(module.named_modules())
    pairs = []
    for node in graph.nodes:
        if node.op != "call_module" or not isinstance(modules.get(node.target), _BATCHNORMS):
            continue
        producer = node.args[0] if node.args else None
        if not isinstance(producer, torch.fx.Node) or producer.op != "call_module":
            continue
        if not isinstance(modules.get(producer.target), _CONVS) or len(producer.users) != 1:
            continue
        if (
            calls[producer.target] == 1
            and calls[node.target] == 1
            and modules[node.target].track_running_stats
        ):
            pairs.append((producer.target, node.target))
    return pairs


def _set_submodule(root: nn.Module, path: str, value: nn.Module) -> None:
    parent_path, _, name = path.rpartition(".")
    parent = root.get_submodule(parent_path) if parent_path else root
    parent._modules[name] = value


def _fold_traced(module: nn.Module) -> int:
    """Fold every remaining conv -> bn pair in place, such as ``self.bn1(self.conv1(x))``."""
    pairs = _conv_bn_pairs(module)
    for conv_path, bn_path in pairs:
        conv, bn = module.get_submodule(conv_path), module.get_submodule(bn_path)
        _set_submodule(module, conv_path, fuse_conv_bn_eval(conv, bn))
        _set_submodule(module, bn_path, nn.Identity())
    return len(pairs)


def freeze(module: nn.Module) -> FreezeResult:
    """A frozen deep copy of ``module``; the original is left untouched for verification."""
    frozen = copy.deepcopy(module).eval()
    for p in frozen.parameters():
        p.requires_grad_(False)
    result = FreezeResult(frozen)
    result.removed_dropouts = _remove_dropout(frozen)
    with torch.no_grad():
        result.folded_batchnorms = _fold_sequential(frozen)
        result.folded_batchnorms += _fold_traced(frozen)
    result.module = frozen.eval()
    left = sum(isinstance(m, _BATCHNORMS) for m in frozen.modules())
    if left:
        result.notes.append(
            f"{left} BatchNorm layer(s) not next to a conv were kept (folded by the ONNX optimizer)"
        )
    return result
