"""Nodes inside If/Loop branches left at the opset torch.onnx translates for (18).

torch.onnx translates to opset 18 and converts the model to 20, but the conversion does not reach
into subgraphs: an ``rfft`` in a cond branch stays a DFT-17 node (``axis`` an attribute, default 1)
that onnxruntime refuses under opset 20 ("Unrecognized attribute: axis for operator DFT"), and a
GridSample keeps its 16-era mode names. Here such nodes get the opset-20 form: DFT's axis becomes
its third input, GridSample's ``bilinear``/``bicubic`` become ``linear``/``cubic``.
"""

from __future__ import annotations

import itertools

import onnx
from onnx import helper

_GRID_MODES = {b"bilinear": b"linear", b"bicubic": b"cubic"}


def subgraph_nodes_at_model_opset(model: onnx.ModelProto) -> int:
    """Rewrite (in place) the DFT and GridSample nodes still in their opset-18 form; returns how many."""
    opset = next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), 0)
    if opset < 20:
        return 0
    names = itertools.count()
    return _walk(model.graph, names)


def _walk(graph: onnx.GraphProto, names) -> int:
    changed = 0
    index = 0
    while index < len(graph.node):
        node = graph.node[index]
        for attr in node.attribute:
            for sub in [attr.g] if attr.type == onnx.AttributeProto.GRAPH else list(attr.graphs):
                changed += _walk(sub, names)
        standard = node.domain in ("", "ai.onnx")
        axis = next((a for a in node.attribute if a.name == "axis"), None)
        if standard and node.op_type == "DFT" and axis is not None:
            name = f"_deploy_dft_axis_{next(names)}"
            value = helper.make_tensor(name, onnx.TensorProto.INT64, [], [axis.i])
            graph.node.insert(index, helper.make_node("Constant", [], [name], value=value))
            index += 1
            node.attribute.remove(axis)
            while len(node.input) < 2:
                node.input.append("")  # no dft_length
            node.input.append(name)
            changed += 1
        for attr in node.attribute if standard and node.op_type == "GridSample" else ():
            if attr.name == "mode" and attr.s in _GRID_MODES:
                attr.s = _GRID_MODES[attr.s]
                changed += 1
        index += 1
    return changed
