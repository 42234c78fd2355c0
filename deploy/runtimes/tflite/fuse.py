"""Peephole passes on the lowered TFLite operators, before the flatbuffer is written.

- ``fold_bias``: FULLY_CONNECTED without bias followed by an ADD of a constant [N] vector
  takes that vector as its bias.
- ``fuse_activations``: RELU/RELU6/RELU_N1_TO_1 after CONV_2D, DEPTHWISE_CONV_2D,
  FULLY_CONNECTED, ADD, SUB, MUL or DIV becomes that op's fused_activation_function.
- ``merge_reshapes``: two RESHAPEs in a row become one.
- ``fc_keep_dims``: flatten -> FULLY_CONNECTED -> unflatten becomes one FULLY_CONNECTED (keep_num_dims).
A pass only fires when the intermediate tensor has no other reader and is no subgraph output.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
from ai_edge_litert import schema_py_generated as schema

from deploy.runtimes.tflite.builder import OPS, Operator, Subgraph

ACT = schema.ActivationFunctionType
ACTIVATIONS = {OPS.RELU: ACT.RELU, OPS.RELU6: ACT.RELU6, OPS.RELU_N1_TO_1: ACT.RELU_N1_TO_1}
OPTIONS = {
    OPS.CONV_2D: schema.Conv2DOptionsT,
    OPS.DEPTHWISE_CONV_2D: schema.DepthwiseConv2DOptionsT,
    OPS.FULLY_CONNECTED: schema.FullyConnectedOptionsT,
    OPS.ADD: schema.AddOptionsT,
    OPS.SUB: schema.SubOptionsT,
    OPS.MUL: schema.MulOptionsT,
    OPS.DIV: schema.DivOptionsT,
}


def _readers(sg: Subgraph) -> Counter:
    count = Counter(i for op in sg.operators for i in op.inputs if i >= 0)
    count.update(sg.outputs)
    return count


def _producers(sg: Subgraph) -> dict[int, Operator]:
    return {out: op for op in sg.operators for out in op.outputs}


def fold_bias(sg: Subgraph) -> int:
    readers, producers = _readers(sg), _producers(sg)
    removed = []
    for op in sg.operators:
        if op.code != OPS.ADD or (op.options and op.options.fusedActivationFunction != ACT.NONE):
            continue
        for mine, other in ((0, 1), (1, 0)):
            fc = producers.get(op.inputs[mine])
            bias = sg.tensors[op.inputs[other]]
            if fc is None or fc.code != OPS.FULLY_CONNECTED or len(fc.inputs) < 3 or fc.inputs[2] >= 0:
                continue
            if readers[op.inputs[mine]] != 1 or op.inputs[mine] in sg.outputs or bias.data is None:
                continue
            units = sg.tensors[fc.inputs[1]].shape[0]
            if bias.data.size != units or bias.data.shape[-1:] != (units,) or bias.dtype != np.float32:
                continue
            fc.inputs[2] = sg.add_tensor(
                bias.name + "_bias", (units,), bias.dtype, data=bias.data.reshape(units)
            )
            fc.outputs = list(op.outputs)
            removed.append(id(op))
            break
    sg.operators = [op for op in sg.operators if id(op) not in removed]
    return len(removed)


def fuse_activations(sg: Subgraph) -> int:
    readers, producers = _readers(sg), _producers(sg)
    removed = []
    for op in sg.operators:
        if op.code not in ACTIVATIONS:
            continue
        source = op.inputs[0]
        producer = producers.get(source)
        if producer is None or producer.code not in OPTIONS or readers[source] != 1 or source in sg.outputs:
            continue
        if sg.tensors[source].dtype != np.float32 or len(producer.outputs) != 1:
            continue
        if producer.options is None:
            producer.options = OPTIONS[producer.code]()
        if producer.options.fusedActivationFunction != ACT.NONE:
            continue
        producer.options.fusedActivationFunction = ACTIVATIONS[op.code]
        producer.outputs = list(op.outputs)
        removed.append(id(op))
    sg.operators = [op for op in sg.operators if id(op) not in removed]
    return len(removed)


def merge_reshapes(sg: Subgraph) -> int:
    """RESHAPE of a RESHAPE (whose result nothing else reads) reads the first one's input directly."""
    readers, producers = _readers(sg), _producers(sg)
    removed = []
    for op in sg.operators:
        if op.code != OPS.RESHAPE:
            continue
        first = producers.get(op.inputs[0])
        if first is None or first.code != OPS.RESHAPE or id(first) in removed:
            continue
        if readers[op.inputs[0]] != 1 or op.inputs[0] in sg.outputs:
            continue
        op.inputs[0] = first.inputs[0]
        removed.append(id(first))
    sg.operators = [op for op in sg.operators if id(op) not in removed]
    return len(removed)


def _signature(sg: Subgraph, tensor: int) -> tuple | None:
    t = sg.tensors[tensor]
    return None if t.shape is None else tuple(t.signature or t.shape)


def fc_keep_dims(sg: Subgraph) -> int:
    """RESHAPE to 2-D -> FULLY_CONNECTED -> RESHAPE back to the leading dims: one FULLY_CONNECTED
    with keep_num_dims on the original tensor (how torch's Linear on 3-D input is exported)."""
    readers, producers = _readers(sg), _producers(sg)
    removed = []
    for fc in sg.operators:
        if fc.code != OPS.FULLY_CONNECTED or (fc.options and fc.options.keepNumDims):
            continue
        flatten = producers.get(fc.inputs[0])
        after = [
            op
            for op in sg.operators
            if op.code == OPS.RESHAPE and op.inputs and op.inputs[0] == fc.outputs[0]
        ]
        if flatten is None or flatten.code != OPS.RESHAPE or len(after) != 1 or readers[fc.outputs[0]] != 1:
            continue
        if readers[fc.inputs[0]] != 1 or fc.outputs[0] in sg.outputs or fc.inputs[0] in sg.outputs:
            continue
        source, target = _signature(sg, flatten.inputs[0]), _signature(sg, after[0].outputs[0])
        units = sg.tensors[fc.inputs[1]].shape[0]
        if not source or not target or len(source) < 3 or source[:-1] != target[:-1] or target[-1] != units:
            continue
        if sum(d == -1 for d in source[:-1]) > 1 or source[-1] != sg.tensors[fc.inputs[1]].shape[1]:
            continue
        fc.options = fc.options or OPTIONS[OPS.FULLY_CONNECTED]()
        fc.options.keepNumDims = True
        fc.inputs[0], fc.outputs = flatten.inputs[0], list(after[0].outputs)
        removed += [id(flatten), id(after[0])]
    sg.operators = [op for op in sg.operators if id(op) not in removed]
    return len(removed) // 2


def optimize(sg: Subgraph) -> dict[str, int]:
    """Run every pass on ``sg``; returns how often each fired."""
    return {
        "reshapes merged": merge_reshapes(sg),
        "reshapes around FULLY_CONNECTED removed": fc_keep_dims(sg),
        "bias folded": fold_bias(sg),
        "activations fused": fuse_activations(sg),
    }
