"""Control flow: ONNX If -> TFLite IF with two subgraphs (Loop and Scan: see loops.py).

ONNX branches read outer values implicitly; TFLite subgraphs only see their inputs, so
the outer values a branch reads (its free values) become explicit operands. Outer
constants are not passed: each subgraph writes the ones it uses.

IF branch outputs must never be tensors the runtime computes at Prepare time. Many
kernels (RESHAPE, GATHER, CONCATENATION, arithmetic, RANGE of constant or persistent
inputs; SHAPE and RANK always) mark their output kTfLitePersistentRo and fill it once in
Prepare. LiteRT's IF (Eval_static) then points such a branch output at the IF output's
memory, so the IF output is never written (garbage values) and the heap buffer is later
freed through the wrong pointer: ``free(): invalid pointer`` when the Interpreter is
destroyed. Only a read-only constant is safe as is (the kernel copies it); anything
derived from constants or shapes alone gets a CAST copy, which is computed at Eval.
"""

from __future__ import annotations

import numpy as np
import onnx_ir as ir
from ai_edge_litert import schema_py_generated as schema

from deploy.runtimes.tflite.builder import OPS, TENSOR_TYPES, Subgraph
from deploy.runtimes.tflite.context import LoweringContext, ir_dtype, ir_shape
from deploy.runtimes.tflite.ops._common import attr
from deploy.runtimes.tflite.registry import lower
from deploy.runtimes.tflite.values import Value

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


def branch(ctx: LoweringContext, graph: ir.Graph, name: str, captured, dtypes, witness: bool = False) -> int:
    """Lower one If branch into a new subgraph taking ``captured`` as inputs; ``witness``: the last
    of them is the IF's condition, read by a dynamic tensor of the branch's own (see lower_if)."""
    from deploy.runtimes.tflite.lowering import lower_graph_body

    child = child_context(ctx, name)
    inputs = [add_subgraph_input(child, key, lowered) for key, lowered in captured]
    if witness:
        limit = child.reshape(child.cast(inputs[-1], np.int32), ())
        zero, one = child.const(np.array(0, np.int32)), child.const(np.array(1, np.int32))
        child.emit(OPS.RANGE, [child.native(zero), child.native(limit), child.native(one)], (None,), np.int32)
    lower_graph_body(child, graph)
    results = [child.cast(child.get(o), dtype) for o, dtype in zip(graph.outputs, dtypes)]
    for value in results:
        child.sg.outputs.append(branch_output(child, value))
    return child.index


def prepare_time_tensors(sg: Subgraph) -> set[int]:
    """Tensors of ``sg`` a kernel may compute at Prepare: constants, SHAPE/RANK results, and
    (conservatively) the results of any operator that reads only such tensors, except a CAST
    of a non-constant (CAST caches its result only for a read-only constant input)."""
    constants = {i for i, t in enumerate(sg.tensors) if t.data is not None}
    found = set(constants)
    for op in sg.operators:
        inputs = [i for i in op.inputs if i >= 0]
        if op.code == OPS.CAST and inputs[0] not in constants:
            continue
        if op.code in (OPS.SHAPE, OPS.RANK) or (inputs and all(i in found for i in inputs)):
            found.update(op.outputs)
    return found


def branch_output(child: LoweringContext, value: Value) -> int:
    """The tensor an IF branch returns for ``value``: never one computed at Prepare time."""
    from deploy.runtimes.tflite.lowering import output_tensor

    if value.const is not None:  # a read-only constant: the IF kernel copies it into its output
        return child.native(value)
    tensor = output_tensor(child, value)
    if tensor in prepare_time_tensors(child.sg):
        copy = child.new_tensor(value.shape, value.dtype, name="copy")
        options = schema.CastOptionsT()
        options.inDataType = options.outDataType = TENSOR_TYPES[np.dtype(value.dtype)]
        child.sg.add_op(OPS.CAST, [tensor], [copy], options)
        tensor = copy
    return tensor


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
    outputs = [(ir_shape(o), dtype) for o, dtype in zip(node.outputs, dtypes)]
    # LiteRT's IF decides at each Prepare whether its outputs are dynamic (a branch holds a dynamic
    # tensor, or the branches' outputs differ in shape at these sizes) and evaluates a static IF by
    # pointing the branch's outputs at its own; when that decision flips between runs of one
    # interpreter (`if n > 20: x = x[-20:]`: static at 2 and 10 items, dynamic at 21), the branch
    # taken at 10 after runs at 2 and 21 writes through a stale pointer: a wrong result or a
    # corrupted heap (set46 shopping_session_next_item). An IF with outputs of a run-time size
    # therefore always holds a dynamic tensor: a RANGE of 0 or 1 entries sized by its condition,
    # passed to each branch as one more operand, so every run takes the dynamic path.
    witness = any(shape is None or None in shape for shape, _ in outputs)
    # LiteRT's IF prepares both branches at the inputs' sizes, and a branch on a size may be invalid
    # at the sizes it is not taken for (`if n < 6: ... else: t * x[-6:]` with t of 6 entries, at
    # n = 2). Ops after a dynamic tensor are prepared only when the branch runs: the witness again.
    witness = witness or _reads_a_shape(node.inputs[0])
    if witness:
        captured = [*captured, (None, cond)]
    name = node.name or "if"
    options = schema.IfOptionsT()
    options.thenSubgraphIndex = branch(ctx, then_graph, f"{name}_then", captured, dtypes, witness)
    options.elseSubgraphIndex = branch(ctx, else_graph, f"{name}_else", captured, dtypes, witness)
    inputs = [ctx.native(cond)] + [ctx.native(v) for _, v in captured]
    return ctx.emit_multi(OPS.IF, inputs, outputs, options=options)


def _reads_a_shape(value: ir.Value | None, depth: int = 12) -> bool:
    """Whether ``value`` (an If's condition) is computed from a tensor's shape (a Shape or Size
    node among the producers within ``depth`` steps)."""
    todo, seen = [(value, 0)], set()
    while todo:
        current, level = todo.pop()
        producer = current.producer() if current is not None else None
        if producer is None or id(producer) in seen or level > depth:
            continue
        seen.add(id(producer))
        if producer.op_type in ("Shape", "Size"):
            return True
        todo.extend((v, level + 1) for v in producer.inputs if v is not None)
    return False
