"""Outputs of If/Loop/Scan bodies produced inside those bodies.

onnxruntime refuses a model whose body returns a value of an enclosing graph as it is ("Subgraph
output (x) is an outer scope value being returned directly"). torch.onnx's optimiser leaves such
bodies when a branch passes a value through unchanged (``else: tok = prev``), once the Identity
that copied it is folded away, and hoist.py can move a body's Transpose that is also its output.
Each such output gets back an Identity inside the body, under a new name; the node owning the body
binds its outputs by position, so nothing outside changes.
"""

from __future__ import annotations

import onnx
from onnx import helper


def outputs_made_inside(model: onnx.ModelProto) -> int:
    """Add the Identity for every body output that is an enclosing graph's value; returns how many."""
    return _fix_bodies_of(model.graph)


def _fix_bodies_of(graph: onnx.GraphProto) -> int:
    fixed = 0
    for node in graph.node:
        for attribute in node.attribute:
            bodies = [attribute.g] if attribute.type == onnx.AttributeProto.GRAPH else list(attribute.graphs)
            for body in bodies:
                fixed += _fix_bodies_of(body) + _copy_outer_outputs(body)
    return fixed


def _copy_outer_outputs(body: onnx.GraphProto) -> int:
    inside = {name for node in body.node for name in node.output}
    inside.update(value.name for value in body.input)
    inside.update(tensor.name for tensor in body.initializer)
    inside.update(tensor.values.name for tensor in body.sparse_initializer)
    fixed = 0
    for position, output in enumerate(body.output):
        if output.name in inside or not output.name:
            continue
        copy = f"{output.name}__{body.name or 'body'}_out{position}"
        body.node.append(helper.make_node("Identity", [output.name], [copy], name=f"{copy}__identity"))
        output.name = copy
        inside.add(copy)
        fixed += 1
    return fixed
