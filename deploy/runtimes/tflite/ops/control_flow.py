"""Control flow: ONNX If -> TFLite IF with two subgraphs, Loop -> WHILE with cond/body subgraphs.

ONNX branches read outer values implicitly; TFLite subgraphs only see their inputs, so
the outer values a branch reads (its free values) become explicit operands. Outer
constants are not passed: each subgraph writes the ones it uses.
Loop's carried state is (iteration, trip limit, condition, loop-carried values, captured
values, scan accumulators); each scan output is appended to its accumulator per step.
"""

from __future__ import annotations

import numpy as np
import onnx_ir as ir
from ai_edge_litert import schema_py_generated as schema

from deploy.runtimes.tflite.builder import OPS
from deploy.runtimes.tflite.context import LoweringContext, ir_dtype, ir_shape
from deploy.runtimes.tflite.ops._common import attr
from deploy.runtimes.tflite.registry import lower
from deploy.runtimes.tflite.values import Unsupported, Value

INT64_MAX = np.iinfo(np.int64).max


def free_values(graph: ir.Graph) -> list[ir.Value]:
    """Values read inside ``graph`` (nested graphs included) that are defined outside it."""
    defined: set[ir.Value] = set()
    free: list[ir.Value] = []

    def visit(g: ir.Graph) -> None:
        defined.update(g.inputs)
        defined.update(g.initializers.values())
        for node in g:
            for value in node.inputs:
                if value is not None and value not in defined and value not in free:
                    free.append(value)
            for a in node.attributes.values():
                for sub in a.value if isinstance(a.value, (list, tuple)) else [a.value]:
                    if isinstance(sub, ir.Graph):
                        visit(sub)
            defined.update(node.outputs)
        for value in g.outputs:
            if value not in defined and value not in free:
                free.append(value)

    visit(graph)
    return [v for v in free if v not in defined]


def child_context(ctx: LoweringContext, name: str) -> LoweringContext:
    index, subgraph = ctx.model.new_subgraph(name)
    child = LoweringContext(ctx.model, subgraph, index, ctx.options)
    child.values.update({k: v for k, v in ctx.values.items() if v.const is not None})
    return child


def add_subgraph_input(child: LoweringContext, key: ir.Value | None, like: Value, shape=None) -> Value:
    shape = like.shape if shape is None else shape
    tensor = child.new_tensor(shape, like.dtype, name=like.name)
    child.sg.inputs.append(tensor)
    value = Value(like.name, shape, like.dtype, tensor=tensor)
    if key is not None:
        child.values[key] = value
    return value


def captured_operands(ctx: LoweringContext, graphs: list[ir.Graph]) -> list[tuple[ir.Value, Value]]:
    """The non-constant outer values the graphs read, with their lowered values."""
    seen, result = set(), []
    for graph in graphs:
        for value in free_values(graph):
            lowered = ctx.get(value)
            if lowered is None or lowered.const is not None or value in seen:
                continue
            seen.add(value)
            result.append((value, lowered))
    return result


def finish_outputs(child: LoweringContext, values: list[Value]) -> None:
    from deploy.runtimes.tflite.lowering import output_tensor

    for value in values:
        child.sg.outputs.append(output_tensor(child, value))


def branch(ctx: LoweringContext, graph: ir.Graph, name: str, captured, dtypes) -> int:
    """Lower one If branch into a new subgraph taking ``captured`` as inputs."""
    from deploy.runtimes.tflite.lowering import lower_graph_body

    child = child_context(ctx, name)
    for key, lowered in captured:
        add_subgraph_input(child, key, lowered)
    lower_graph_body(child, graph)
    results = [child.cast(child.get(o), dtype) for o, dtype in zip(graph.outputs, dtypes)]
    finish_outputs(child, results)
    return child.index


@lower("If")
def lower_if(ctx: LoweringContext, node: ir.Node) -> list[Value]:
    """If(cond) then_branch / else_branch: IF with one subgraph per branch."""
    cond = ctx.input(node, 0)
    then_graph, else_graph = attr(node, "then_branch"), attr(node, "else_branch")
    if cond.const is not None:  # a constant condition: inline the branch taken
        from deploy.runtimes.tflite.lowering import lower_graph_body

        taken = then_graph if bool(np.asarray(cond.const).reshape(-1)[0]) else else_graph
        lower_graph_body(ctx, taken)
        return [ctx.get(o) for o in taken.outputs]
    captured = captured_operands(ctx, [then_graph, else_graph])
    dtypes = [ir_dtype(o) for o in node.outputs]
    options = schema.IfOptionsT()
    options.thenSubgraphIndex = branch(ctx, then_graph, f"{node.name or 'if'}_then", captured, dtypes)
    options.elseSubgraphIndex = branch(ctx, else_graph, f"{node.name or 'if'}_else", captured, dtypes)
    inputs = [ctx.native(cond)] + [ctx.native(v) for _, v in captured]
    outputs = [(ir_shape(o), dtype) for o, dtype in zip(node.outputs, dtypes)]
    return ctx.emit_multi(OPS.IF, inputs, outputs, options=options)


def scalar_value(ctx: LoweringContext, value: Value | None, default, dtype) -> Value:
    if value is None:
        return ctx.const(np.array(default, dtype=dtype))
    return ctx.cast(ctx.reshape(value, ()) if value.rank else value, dtype)


@lower("Loop")
def lower_loop(ctx: LoweringContext, node: ir.Node) -> list[Value]:
    """Loop(M, cond, v_initial...) body -> WHILE; scan outputs are stacked along a new axis 0."""
    body: ir.Graph = attr(node, "body")
    trip = scalar_value(ctx, ctx.input(node, 0), INT64_MAX, np.int64)
    cond = scalar_value(ctx, ctx.input(node, 1), True, np.bool_)
    carried = [ctx.input(node, i) for i in range(2, len(node.inputs))]
    n_carried, n_scan = len(carried), len(body.outputs) - 1 - len(carried)
    captured = captured_operands(ctx, [body])
    accumulators = []
    for out in body.outputs[1 + n_carried :]:
        shape = ir_shape(out)
        if shape is None or None in shape:
            raise Unsupported("Loop scan output of a dynamic shape")
        # One dummy leading row: WHILE cannot carry an empty tensor; it is sliced off afterwards.
        fill = ctx.emit(OPS.FILL, [ctx.int32_tensor([1, *shape]), ctx.tensor(ctx.const(np.array(0, ir_dtype(out))))],
                        (None, *shape), ir_dtype(out))  # fmt: skip
        accumulators.append(fill)
    state = [ctx.const(np.array(0, np.int64)), trip, cond, *carried, *[v for _, v in captured], *accumulators]
    options = schema.WhileOptionsT()
    options.condSubgraphIndex = loop_condition(ctx, state, node.name)
    options.bodySubgraphIndex = loop_body(ctx, body, state, captured, n_carried, n_scan, node.name)
    inputs = [ctx.native(v) for v in state]
    outputs = ctx.emit_multi(OPS.WHILE, inputs, [(v.shape, v.dtype) for v in state], options=options)
    final = outputs[3 : 3 + n_carried]
    return final + [drop_first_row(ctx, acc) for acc in outputs[len(state) - n_scan :]]


def drop_first_row(ctx: LoweringContext, acc: Value) -> Value:
    rank = acc.rank
    options = schema.StridedSliceOptionsT()
    options.beginMask = ~1 & ((1 << rank) - 1)
    options.endMask = (1 << rank) - 1
    begin, end, strides = (
        ctx.int32_tensor([1] + [0] * (rank - 1)),
        ctx.int32_tensor([0] * rank),
        ctx.int32_tensor([1] * rank),
    )
    return ctx.emit(
        OPS.STRIDED_SLICE, [acc.tensor, begin, end, strides], acc.shape, acc.dtype, options=options
    )


def loop_condition(ctx: LoweringContext, state: list[Value], name: str) -> int:
    child = child_context(ctx, f"{name or 'loop'}_cond")
    inputs = [add_subgraph_input(child, None, v) for v in state]
    below = child.emit(OPS.LESS, [inputs[0].tensor, inputs[1].tensor], (), np.bool_)
    going = child.emit(OPS.LOGICAL_AND, [below.tensor, inputs[2].tensor], (), np.bool_)
    child.sg.outputs.append(going.tensor)
    return child.index


def loop_body(ctx, body: ir.Graph, state, captured, n_carried: int, n_scan: int, name: str) -> int:
    from deploy.runtimes.tflite.lowering import lower_graph_body

    child = child_context(ctx, f"{name or 'loop'}_body")
    keys = [body.inputs[0], None, body.inputs[1], *body.inputs[2:], *[k for k, _ in captured]] + [
        None
    ] * n_scan
    inputs = [add_subgraph_input(child, key, v) for key, v in zip(keys, state)]
    lower_graph_body(child, body)
    step = child.emit(
        OPS.ADD, [inputs[0].tensor, child.tensor(child.const(np.array(1, np.int64)))], (), np.int64
    )
    cond_out = child.cast(child.get(body.outputs[0]), np.bool_)
    if cond_out.rank:
        cond_out = child.reshape(cond_out, ())
    new_state = [step, inputs[1], cond_out]
    new_state += [
        child.cast(child.get(o), v.dtype) for o, v in zip(body.outputs[1 : 1 + n_carried], state[3:])
    ]
    new_state += inputs[3 + n_carried : len(state) - n_scan]
    for out, acc in zip(body.outputs[1 + n_carried :], inputs[len(state) - n_scan :]):
        item = child.get(out)
        expanded = child.reshape(item, (1, *item.shape))
        options = schema.ConcatenationOptionsT()
        new_state.append(child.emit(OPS.CONCATENATION, [acc.tensor, expanded.tensor], acc.shape, acc.dtype,
                                    options=options))  # fmt: skip
    finish_outputs(child, new_state)
    return child.index
