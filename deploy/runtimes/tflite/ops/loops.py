"""ONNX Loop and Scan -> TFLite WHILE with a cond and a body subgraph.

The WHILE state is (iteration, trip count, condition, carried values, scanned inputs,
captured outer values, accumulators). Each per-step output is appended to its
accumulator; an accumulator starts with one dummy row (WHILE cannot carry an empty
tensor) that is sliced off after the loop.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import onnx_ir as ir
from ai_edge_litert import schema_py_generated as schema

from deploy.runtimes.tflite.builder import OPS
from deploy.runtimes.tflite.context import LoweringContext, ir_dtype, ir_shape
from deploy.runtimes.tflite.ops._common import attr, norm_axis
from deploy.runtimes.tflite.ops.control_flow import (
    add_subgraph_input,
    captured_operands,
    child_context,
    finish_outputs,
)
from deploy.runtimes.tflite.registry import lower
from deploy.runtimes.tflite.values import Unsupported, Value

INT64_MAX = np.iinfo(np.int64).max


def scalar_value(ctx: LoweringContext, value: Value | None, default, dtype) -> Value:
    if value is None:
        return ctx.const(np.array(default, dtype=dtype))
    return ctx.cast(ctx.reshape(value, ()) if value.rank else value, dtype)


def accumulator(ctx: LoweringContext, out: ir.Value) -> Value:
    shape = ir_shape(out)
    if shape is None or None in shape:
        raise Unsupported("a per-step output of a dynamic shape")
    zero = ctx.tensor(ctx.const(np.array(0, ir_dtype(out))))
    return ctx.emit(OPS.FILL, [ctx.int32_tensor([1, *shape]), zero], (None, *shape), ir_dtype(out))


def drop_first_row(ctx: LoweringContext, acc: Value) -> Value:
    rank = acc.rank
    options = schema.StridedSliceOptionsT()
    options.beginMask = ~1 & ((1 << rank) - 1)
    options.endMask = (1 << rank) - 1
    begin, end = ctx.int32_tensor([1] + [0] * (rank - 1)), ctx.int32_tensor([0] * rank)
    inputs = [acc.tensor, begin, end, ctx.int32_tensor([1] * rank)]
    return ctx.emit(OPS.STRIDED_SLICE, inputs, acc.shape, acc.dtype, options=options)


def loop_condition(ctx: LoweringContext, state: list[Value], name: str) -> int:
    child = child_context(ctx, f"{name}_cond")
    inputs = [add_subgraph_input(child, None, v) for v in state]
    below = child.emit(OPS.LESS, [inputs[0].tensor, inputs[1].tensor], (), np.bool_)
    going = child.emit(OPS.LOGICAL_AND, [below.tensor, inputs[2].tensor], (), np.bool_)
    child.sg.outputs.append(going.tensor)
    return child.index


def build_while(ctx: LoweringContext, name: str, state: list[Value], keys: list, n_acc: int, step: Callable,
                drop_first: bool = True) -> list[Value]:  # fmt: skip
    """WHILE over ``state``; ``step(child, inputs) -> (cond, carried, per_step_outputs)`` lowers one body step.

    ``keys`` binds each state entry to the body graph value it stands for (or None).
    """
    options = schema.WhileOptionsT()
    options.condSubgraphIndex = loop_condition(ctx, state, name)
    child = child_context(ctx, f"{name}_body")
    inputs = [add_subgraph_input(child, key, v) for key, v in zip(keys, state)]
    cond, carried, per_step = step(child, inputs)
    one = child.tensor(child.const(np.array(1, np.int64)))
    new_state = [child.emit(OPS.ADD, [inputs[0].tensor, one], (), np.int64), inputs[1], cond, *carried]
    new_state += inputs[len(new_state) : len(state) - n_acc]
    for item, acc in zip(per_step, inputs[len(state) - n_acc :]):
        expanded = expand_front(child, item)
        concat = schema.ConcatenationOptionsT()
        new_state.append(child.emit(OPS.CONCATENATION, [acc.tensor, expanded.tensor], acc.shape, acc.dtype,
                                    options=concat))  # fmt: skip
    finish_outputs(child, new_state)
    options.bodySubgraphIndex = child.index
    outputs = ctx.emit_multi(OPS.WHILE, [ctx.native(v) for v in state], [(v.shape, v.dtype) for v in state],
                             options=options)  # fmt: skip
    if not n_acc or not drop_first:
        return outputs
    return outputs[:-n_acc] + [drop_first_row(ctx, a) for a in outputs[len(state) - n_acc :]]


def expand_front(ctx: LoweringContext, item: Value) -> Value:
    """``item`` with a new leading dim of 1 (EXPAND_DIMS, so its shape need not be known)."""
    shape = None if item.shape is None else (1, *item.shape)
    return ctx.emit(OPS.EXPAND_DIMS, [ctx.native(item), ctx.int32_tensor([0])], shape, item.dtype,
                    options=schema.ExpandDimsOptionsT())  # fmt: skip


@lower("Loop")
def lower_loop(ctx: LoweringContext, node: ir.Node) -> list[Value]:
    """Loop(M, cond, v_initial...) body -> WHILE; scan outputs are stacked along a new axis 0."""
    body: ir.Graph = attr(node, "body")
    trip = scalar_value(ctx, ctx.input(node, 0), INT64_MAX, np.int64)
    cond = scalar_value(ctx, ctx.input(node, 1), True, np.bool_)
    carried = [ctx.input(node, i) for i in range(2, len(node.inputs))]
    n_carried = len(carried)
    captured = captured_operands(ctx, [body])
    accumulators = [accumulator(ctx, out) for out in body.outputs[1 + n_carried :]]
    state = [ctx.const(np.array(0, np.int64)), trip, cond, *carried, *[v for _, v in captured], *accumulators]
    keys = [body.inputs[0], None, body.inputs[1], *body.inputs[2:], *[k for k, _ in captured]]
    keys += [None] * len(accumulators)

    def step(child: LoweringContext, inputs: list[Value]):
        from deploy.runtimes.tflite.lowering import lower_graph_body

        lower_graph_body(child, body)
        cond_out = child.cast(child.get(body.outputs[0]), np.bool_)
        cond_out = child.reshape(cond_out, ()) if cond_out.rank else cond_out
        outs = [child.cast(child.get(o), v.dtype) for o, v in zip(body.outputs[1 : 1 + n_carried], carried)]
        return cond_out, outs, [child.get(o) for o in body.outputs[1 + n_carried :]]

    outputs = build_while(ctx, node.name or "loop", state, keys, len(accumulators), step)
    return outputs[3 : 3 + n_carried] + outputs[len(state) - len(accumulators) :]


@lower("Scan")
def lower_scan(ctx: LoweringContext, node: ir.Node) -> list[Value]:
    """Scan(states..., scan_inputs...) body -> WHILE over the scanned axis (opset >= 9)."""
    if ctx.options.get("opset", 18) < 9:
        raise Unsupported("Scan before opset 9 (batched, with sequence_lens)")
    body: ir.Graph = attr(node, "body")
    n_in = attr(node, "num_scan_inputs")
    values = [ctx.input(node, i) for i in range(len(node.inputs))]
    states, scans = values[: len(values) - n_in], values[len(values) - n_in :]
    n_state, n_out = len(states), len(body.outputs) - len(states)
    in_axes = [norm_axis(a, v.rank) for a, v in zip(attr(node, "scan_input_axes", [0] * n_in), scans)]
    in_dirs = attr(node, "scan_input_directions", [0] * n_in)
    trip = scan_length(ctx, scans[0], in_axes[0])
    captured = captured_operands(ctx, [body])
    static = all(ir_shape(o) is not None and None not in ir_shape(o) for o in body.outputs[n_state:])
    start = 0
    if static:
        accumulators = [accumulator(ctx, out) for out in body.outputs[n_state:]]
    else:  # per-step shapes known only at run time: run step 0 before the loop, its outputs seed the stacks
        states, accumulators = scan_first_step(ctx, body, states, scans, in_axes, in_dirs, trip)
        start = 1
    state = [ctx.const(np.array(start, np.int64)), trip, ctx.const(np.array(True)), *states, *scans,
             *[v for _, v in captured], *accumulators]  # fmt: skip
    keys = [None, None, None, *body.inputs[:n_state], *[None] * n_in, *[k for k, _ in captured]]
    keys += [None] * n_out

    def step(child: LoweringContext, inputs: list[Value]):
        from deploy.runtimes.tflite.lowering import lower_graph_body

        index = inputs[0]
        for k, (value, axis, reverse) in enumerate(
            zip(inputs[3 + n_state : 3 + n_state + n_in], in_axes, in_dirs)
        ):
            if reverse:  # trip - 1 - i
                one = child.tensor(child.const(np.array(1, np.int64)))
                last = child.emit(OPS.SUB, [inputs[1].tensor, one], (), np.int64)
                index = child.emit(OPS.SUB, [last.tensor, inputs[0].tensor], (), np.int64)
            options = schema.GatherOptionsT()
            options.axis = axis
            shape = tuple(d for i, d in enumerate(value.shape) if i != axis)
            child.values[body.inputs[n_state + k]] = child.emit(OPS.GATHER, [value.tensor, index.tensor], shape,
                                                                value.dtype, options=options)  # fmt: skip
            index = inputs[0]
        lower_graph_body(child, body)
        outs = [child.cast(child.get(o), v.dtype) for o, v in zip(body.outputs[:n_state], states)]
        return inputs[2], outs, [child.get(o) for o in body.outputs[n_state:]]

    outputs = build_while(ctx, node.name or "scan", state, keys, n_out, step, drop_first=static)
    finals = outputs[3 : 3 + n_state]
    stacked = outputs[len(state) - n_out :]
    out_axes = attr(node, "scan_output_axes", [0] * n_out)
    out_dirs = attr(node, "scan_output_directions", [0] * n_out)
    return finals + [place_scan_output(ctx, v, a, d) for v, a, d in zip(stacked, out_axes, out_dirs)]


def scan_length(ctx: LoweringContext, value: Value, axis: int) -> Value:
    """The length of the scanned axis as an int64 scalar (a constant when static)."""
    if value.shape[axis] is not None:
        return ctx.const(np.array(value.shape[axis], np.int64))
    options = schema.GatherOptionsT()
    dims = ctx.shape_of(value, "int64")
    return ctx.emit(
        OPS.GATHER, [ctx.native(dims), ctx.int32_tensor(np.array(axis))], (), np.int64, options=options
    )


def scan_element(ctx: LoweringContext, value: Value, axis: int, position: int | Value) -> Value:
    options = schema.GatherOptionsT()
    options.axis = axis
    shape = tuple(d for i, d in enumerate(value.shape) if i != axis)
    if isinstance(position, Value):
        index = ctx.native(position)
    else:
        index = ctx.tensor(ctx.const(np.array(position, np.int64)))
    return ctx.emit(OPS.GATHER, [ctx.native(value), index], shape, value.dtype, options=options)


def scan_first_step(ctx, body: ir.Graph, states, scans, in_axes, in_dirs, trip: Value):
    """Lower Scan's first step inline: (states after it, stacks holding its per-step outputs)."""
    from deploy.runtimes.tflite.lowering import lower_graph_body

    n_state = len(states)
    for key, value in zip(body.inputs[:n_state], states):
        ctx.values[key] = value
    for k, (value, axis, reverse) in enumerate(zip(scans, in_axes, in_dirs)):
        last = ctx.emit(
            OPS.SUB, [ctx.native(trip), ctx.tensor(ctx.const(np.array(1, np.int64)))], (), np.int64
        )
        ctx.values[body.inputs[n_state + k]] = scan_element(ctx, value, axis, last if reverse else 0)
    lower_graph_body(ctx, body)
    after = [ctx.cast(ctx.get(o), v.dtype) for o, v in zip(body.outputs[:n_state], states)]
    stacks = []
    for out in body.outputs[n_state:]:
        item = expand_front(ctx, ctx.get(out))
        if item.shape is not None:
            item.shape = (None, *item.shape[1:])
        stacks.append(item)
    return after, stacks


def place_scan_output(ctx: LoweringContext, stacked: Value, axis: int, reverse: int) -> Value:
    """Reverse and move the stacking axis 0 of a scan output to ``axis``."""
    result = Value(stacked.name, (None if stacked.shape[0] is None else stacked.shape[0], *stacked.shape[1:]),
                   stacked.dtype, tensor=stacked.tensor)  # fmt: skip
    if reverse:
        result = ctx.emit(OPS.REVERSE_V2, [result.tensor, ctx.int32_tensor([0])], result.shape, result.dtype)
    axis = norm_axis(axis, result.rank)
    if axis == 0:
        return result
    order = [*range(1, axis + 1), 0, *range(axis + 1, result.rank)]
    shape = tuple(result.shape[i] for i in order)
    return Value(
        result.name, shape, result.dtype, tensor=result.tensor, perm=tuple(int(i) for i in np.argsort(order))
    )
