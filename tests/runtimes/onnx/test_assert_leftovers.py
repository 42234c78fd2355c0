"""The comparisons torch.onnx's assertion removal orphans are removed with the asserts, nothing else."""

from __future__ import annotations

import operator

import torch
from torch.onnx._internal.exporter import _fx_passes

from deploy.runtimes.onnx.assert_leftovers import assert_leftovers_removed, remove_unread_symbolic_ops


class Checked(torch.nn.Module):
    def forward(self, x: torch.Tensor, k: torch.Tensor) -> torch.Tensor:
        n = k.item()
        torch._check(n * n <= 27670116110564327421)  # a bound past int64, as torch's value ranges can make
        torch._check(n >= 0)
        return x * n


def _graph_with_leftover() -> torch.fx.GraphModule:
    graph = torch.fx.Graph()
    x = graph.placeholder("x")
    size = graph.call_function(torch.ops.aten.sym_size.int, (x, 0))
    square = graph.call_function(operator.mul, (size, size))
    graph.call_function(operator.le, (square, 27670116110564327421))  # read by nothing
    kept = graph.call_function(operator.add, (size, 1))
    out = graph.call_function(torch.ops.aten.new_zeros.default, (x, [kept]))
    graph.call_function(operator.setitem, ({}, "k", out))  # has an effect: stays
    graph.output(out)
    return torch.fx.GraphModule(torch.nn.Module(), graph)


def test_unread_comparison_chain_goes_effects_and_reads_stay():
    module = remove_unread_symbolic_ops(_graph_with_leftover())
    targets = [n.target for n in module.graph.nodes if n.op == "call_function"]
    assert operator.le not in targets and operator.mul not in targets
    assert operator.add in targets and operator.setitem in targets
    assert module(torch.ones(3)).shape == (4,)


def test_patch_only_while_translating():
    original = _fx_passes.remove_assertion_nodes
    with assert_leftovers_removed():
        assert _fx_passes.remove_assertion_nodes is not original
        module = _fx_passes.remove_assertion_nodes(_graph_with_leftover())
        assert operator.le not in [n.target for n in module.graph.nodes]
    assert _fx_passes.remove_assertion_nodes is original


def test_onnx_export_with_a_check_past_int64():
    import numpy as np
    import onnxruntime as ort

    from deploy.runtimes.onnx.emit import to_onnx_proto

    program = torch.export.export(Checked(), (torch.randn(5), torch.tensor(3)), strict=False)
    proto = to_onnx_proto(program)  # failed: "Python int too large to convert to C long"
    session = ort.InferenceSession(proto.SerializeToString())
    x = np.arange(5, dtype=np.float32)
    (got,) = session.run(
        None, {i.name: v for i, v in zip(session.get_inputs(), (x, np.array(4)), strict=True)}
    )
    np.testing.assert_allclose(got, x * 4)
