"""Peephole passes on the lowered TFLite operators, before the flatbuffer is written.

- ``fold_bias``: FULLY_CONNECTED without bias followed by an ADD of a constant [N] vector
  takes that vector as its bias.
- ``fuse_activations``: RELU/RELU6/RELU_N1_TO_1 after CONV_2D, DEPTHWISE_CONV_2D,
  FULLY_CONNECTED, ADD, SUB, MUL or DIV becomes that op's fused_activation_function.
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


def optimize(sg: Subgraph) -> dict[str, int]:
    """Run every pass on ``sg``; returns how often each fired."""
    return {"bias folded": fold_bias(sg), "activations fused": fuse_activations(sg)}
