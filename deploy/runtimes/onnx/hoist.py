"""Loop-invariant Transposes moved out of Loop/If/Scan bodies.

onnxruntime's MatmulTransposeFusion (on at its default optimisation level) folds a Transpose into
the MatMul it feeds; inside a Loop body, for a Transpose of a value from the enclosing graph
(``w.T @ u`` in power iteration, with ``w`` computed before the loop), the fused graph computes a
wrong result (measured: 0.9 max abs error with onnxruntime 1.32; right with that optimiser off, and
in TFLite). A Transpose whose input comes from outside the body computes the same value on every
iteration, so it moves to the enclosing graph, in front of the node that owns the body: the same
result, computed once, and no fusion across the body boundary.
"""

from __future__ import annotations

import onnx


def hoist_invariant_transposes(model: onnx.ModelProto) -> int:
    """Move such Transposes out, innermost bodies first; returns how many moved."""
    return _hoist_in(model.graph)


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
