"""torch.onnx's torchlib registry is built once and handed out as independent copies."""

from __future__ import annotations

import torch
from torch.onnx._internal.exporter import _registration

from deploy.runtimes.onnx.registry import torchlib_registry_reused


def test_each_export_gets_its_own_copy_of_one_registry():
    original = _registration.ONNXRegistry.__dict__["from_torchlib"]
    with torchlib_registry_reused():
        first = _registration.ONNXRegistry.from_torchlib()
        first.register_op(torch.ops.aten.relu.default, lambda x: x)  # a custom translation, as an export adds
        second = _registration.ONNXRegistry().from_torchlib()
        assert second.functions is not first.functions
        assert len(second.functions["aten::relu"]) == len(first.functions["aten::relu"]) - 1
        assert second.functions.keys() == first.functions.keys()
    assert _registration.ONNXRegistry.__dict__["from_torchlib"] is original  # restored after
    fresh = _registration.ONNXRegistry.from_torchlib()
    assert fresh.functions.keys() == second.functions.keys()
    assert [m.onnx_function for m in fresh.functions["aten::add.Tensor"]] == [
        m.onnx_function for m in second.functions["aten::add.Tensor"]
    ]
