"""Loop-invariant Transposes moved out of Loop/If/Scan bodies.

onnxruntime's MatmulTransposeFusion (on at its default optimisation level) folds a Transpose into
the MatMul it feeds; inside a Loop body, for a Transpose of a value from the enclosing graph
(``w.T @ u`` in power iteration, with ``w`` computed before the loop), the fused graph computes a
wrong result (measured: 0.9 max abs error with onnxruntime 1.32; right with that optimiser off, and
in TFLite). A Transpose whose input comes from outside the body computes the same value on every
iteration, so it moves to the enclosing graph, in front of the node that owns the body: the same
result, computed once, and no fusion across the body boundary.

The fusion's root bug: ``Transpose(A) @ v`` with a 1-D ``v`` (a matrix-vector product; measured
with onnxruntime 1.32 on a plain graph: 0.8 max abs error for ``jac.T @ err``). Every Transpose that
feeds a MatMul whose other operand is 1-D (or of unknown rank) is therefore done on a leading unit
dim instead (Unsqueeze, Transpose, Squeeze): the same values, and no Transpose -> MatMul pair for
the fusion to fold. Matrix-matrix products keep their fusion.
"""

from __future__ import annotations

import onnx
from onnx import TensorProto, helper


def hoist_invariant_transposes(model: onnx.ModelProto) -> int:
    """Move such Transposes out, innermost bodies first, then shield matrix-vector ones; returns
    how many moved."""
    moved = _hoist_in(model.graph)
    _shield_in(model.graph, _ranks(model))
    return moved


def _hoist_in(graph: onnx.GraphProto) -> int:
    moved = 0
    nodes = []
    for node in graph.node:
        for attribute in node.attribute:
            if attribute.type == onnx.AttributeProto.GRAPH:
                moved += _hoist_in(attribute.g)
                hoisted = _take_invariant_transposes(attribute.g)
                nodes.extend(hoisted)
                moved += len(hoisted)

        nodes.append(node)
    if moved:
        del graph.node[:]
        graph.node.extend(nodes)
    return moved


def _take_invariant_transposes(body: onnx.GraphProto) -> list[onnx.NodeProto]:
    """Remove from ``body`` the Transposes whose input is not defined in it; return them."""
    local = {i.name for i in body.input} | {i.name for i in body.initializer}
    for node in body.node:
        local.update(node.output)
    taken = [
        node
        for node in body.node
        if node.op_type == "Transpose" and node.domain in ("", "ai.onnx") and node.input[0] not in local
    ]
    if taken:
        keep = [node for node in body.node if node not in taken]
        del body.node[:]
        body.node.extend(keep)
    return taken


def _ranks(model: onnx.ModelProto) -> dict[str, int]:
    """Tensor name -> rank, where shape inference (or the model) knows it."""
    try:
        model = onnx.shape_inference.infer_shapes(model)
    except Exception:  # ranks then come from what the model declares
        pass
    ranks: dict[str, int] = {}

    def collect(graph: onnx.GraphProto) -> None:
        for value in [*graph.input, *graph.value_info, *graph.output]:
            tensor = value.type.tensor_type
            if value.type.HasField("tensor_type") and tensor.HasField("shape"):
                ranks[value.name] = len(tensor.shape.dim)
        for init in graph.initializer:
            ranks[init.name] = len(init.dims)
        for node in graph.node:
            if node.op_type == "Constant":
                for a in node.attribute:
                    if a.name == "value":
                        ranks[node.output[0]] = len(a.t.dims)
            for a in node.attribute:
                if a.type == onnx.AttributeProto.GRAPH:
                    collect(a.g)

    collect(model.graph)
    return ranks


def _shield_in(graph: onnx.GraphProto, ranks: dict[str, int]) -> None:
    for node in graph.node:
        for attribute in node.attribute:
            if attribute.type == onnx.AttributeProto.GRAPH:
                _shield_in(attribute.g, ranks)
    _shield_matrix_vector_transposes(graph, ranks)


def _shield_matrix_vector_transposes(graph: onnx.GraphProto, ranks: dict[str, int]) -> None:
    """Each Transpose feeding a MatMul with a 1-D (or unknown-rank) other operand becomes
    Unsqueeze -> Transpose -> Squeeze."""
    feeds = set()
    for node in graph.node:
        if node.op_type == "MatMul" and len(node.input) == 2:
            a, b = node.input
            if ranks.get(b, 1) == 1:
                feeds.add(a)
            if ranks.get(a, 1) == 1:
                feeds.add(b)
    nodes = []
    for node in graph.node:
        perm = next((list(a.ints) for a in node.attribute if a.name == "perm"), None)
        if (
            not (node.op_type == "Transpose" and node.domain in ("", "ai.onnx") and node.output[0] in feeds)
            or not perm
        ):
            nodes.append(node)
            continue
        base = node.output[0]
        axes, lifted, turned = f"{base}__axes0", f"{base}__lifted", f"{base}__turned"
        nodes.append(
            helper.make_node(
                "Constant", [], [axes], value=helper.make_tensor(axes, TensorProto.INT64, [1], [0])
            )
        )
        nodes.append(helper.make_node("Unsqueeze", [node.input[0], axes], [lifted]))
        nodes.append(helper.make_node("Transpose", [lifted], [turned], perm=[0] + [p + 1 for p in perm]))
        nodes.append(helper.make_node("Squeeze", [turned, axes], [base]))
    if len(nodes) != len(graph.node):
        del graph.node[:]
        graph.node.extend(nodes)
