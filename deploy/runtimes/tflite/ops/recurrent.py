"""RNN, GRU and LSTM, unrolled over a static sequence length into matrix products and gates.

The input projection of all time steps is one BATCH_MATMUL; each step adds the
recurrent projection and applies the gates. Directions forward, reverse and
bidirectional; layout 0 (sequence first) and 1 (batch first); sequence_lens only when
it cannot shorten a sequence (absent).
"""

from __future__ import annotations

import numpy as np
import onnx_ir as ir
from ai_edge_litert import schema_py_generated as schema

from deploy.runtimes.tflite.builder import OPS
from deploy.runtimes.tflite.context import LoweringContext
from deploy.runtimes.tflite.ops._common import attr, elementwise_values, scalar, unary_values
from deploy.runtimes.tflite.ops.matmul import batch_matmul
from deploy.runtimes.tflite.registry import lower
from deploy.runtimes.tflite.values import Unsupported, Value

ACTIVATIONS = {"Tanh": OPS.TANH, "Sigmoid": OPS.LOGISTIC, "Relu": OPS.RELU}
GATES = {"RNN": 1, "GRU": 3, "LSTM": 4}
DEFAULTS = {"RNN": ["Tanh"], "GRU": ["Sigmoid", "Tanh"], "LSTM": ["Sigmoid", "Tanh", "Tanh"]}


def reorder(value: Value, order: tuple[int, ...]) -> Value:
    """``value`` transposed by ``order`` as a layout change (no operator until one is needed)."""
    current = value.perm or tuple(range(value.rank))
    moved = [current.index(q) for q in order]
    layout = tuple(int(i) for i in np.argsort(moved))
    shape = tuple(value.shape[q] for q in order)
    return Value(value.name, shape, value.dtype, tensor=value.tensor, perm=layout)


def take(ctx: LoweringContext, value: Value, index: int, axis: int = 0) -> Value:
    """value[index] along ``axis`` (the axis is dropped)."""
    if value.const is not None:
        return ctx.const(np.take(value.const, index, axis=axis))
    options = schema.GatherOptionsT()
    options.axis = axis
    shape = tuple(d for i, d in enumerate(value.shape) if i != axis)
    return ctx.emit(OPS.GATHER, [ctx.native(value), ctx.int32_tensor(np.array(index))], shape, value.dtype,
                    options=options)  # fmt: skip


def split_last(ctx: LoweringContext, value: Value, parts: int) -> list[Value]:
    if parts == 1:
        return [value]
    options = schema.SplitOptionsT()
    options.numSplits = parts
    shape = (*value.shape[:-1], value.shape[-1] // parts)
    axis = ctx.int32_tensor(np.array(value.rank - 1))
    return ctx.emit_multi(
        OPS.SPLIT, [axis, ctx.native(value)], [(shape, value.dtype)] * parts, options=options
    )


def stack(ctx: LoweringContext, values: list[Value], axis: int) -> Value:
    options = schema.PackOptionsT()
    options.valuesCount, options.axis = len(values), axis
    shape = (*values[0].shape[:axis], len(values), *values[0].shape[axis:])
    return ctx.emit(OPS.PACK, [ctx.native(v) for v in values], shape, values[0].dtype, options=options)


class Cell:
    """One direction's weights and the gate arithmetic of one op type."""

    def __init__(self, ctx: LoweringContext, node: ir.Node, direction: int, activations: list[str]):
        self.ctx, self.op = ctx, node.op_type
        self.hidden = attr(node, "hidden_size")
        gates = GATES[self.op]
        self.r = take(ctx, ctx.input(node, 2), direction)
        bias = ctx.input(node, 3)
        if bias is not None:
            b = take(ctx, bias, direction)
            halves = split_last(ctx, b, 2)
            self.bias_x, self.bias_h = halves
        else:
            zero = ctx.const(np.zeros(gates * self.hidden, np.float32))
            self.bias_x = self.bias_h = zero
        peephole = ctx.input(node, 7) if self.op == "LSTM" and len(node.inputs) > 7 else None
        self.peepholes = split_last(ctx, take(ctx, peephole, direction), 3) if peephole is not None else None
        self.activations = [ACTIVATIONS[a] for a in activations]
        self.clip = attr(node, "clip")
        self.before_reset = attr(node, "linear_before_reset", 0)

    def act(self, k: int, value: Value) -> Value:
        if self.clip is not None:
            value = elementwise_values(self.ctx, OPS.MINIMUM, value, scalar(self.ctx, self.clip, np.float32))
            value = elementwise_values(self.ctx, OPS.MAXIMUM, value, scalar(self.ctx, -self.clip, np.float32))
        return unary_values(self.ctx, self.activations[k], value)

    def recurrent(self, h: Value) -> Value:
        shape = (h.shape[0], self.r.shape[0])
        product = batch_matmul(self.ctx, h, self.r, shape, adj_y=True)
        return elementwise_values(self.ctx, OPS.ADD, product, self.bias_h)

    def step(self, x_part: Value, h: Value, c: Value | None) -> tuple[Value, Value | None]:
        ctx, add, mul = self.ctx, OPS.ADD, OPS.MUL
        x_part = elementwise_values(ctx, add, x_part, self.bias_x)
        if self.op == "RNN":
            return self.act(0, elementwise_values(ctx, add, x_part, self.recurrent(h))), None
        if self.op == "GRU":
            xz, xr, xh = split_last(ctx, x_part, 3)
            rz, rr, rh_full = split_last(ctx, self.recurrent(h), 3)
            z = self.act(0, elementwise_values(ctx, add, xz, rz))
            r = self.act(0, elementwise_values(ctx, add, xr, rr))
            if self.before_reset:
                candidate = elementwise_values(ctx, add, xh, elementwise_values(ctx, mul, r, rh_full))
            else:
                r_h = elementwise_values(ctx, mul, r, h)
                candidate = elementwise_values(ctx, add, xh, self.reset_projection(r_h))
            hh = self.act(1, candidate)
            keep = elementwise_values(ctx, mul, z, h)
            new = elementwise_values(
                ctx, mul, elementwise_values(ctx, OPS.SUB, scalar(ctx, 1.0, np.float32), z), hh
            )
            return elementwise_values(ctx, add, new, keep), None
        xi, xo, xf, xc = split_last(ctx, x_part, 4)
        ri, ro, rf, rc = split_last(ctx, self.recurrent(h), 4)
        pre_i, pre_f = elementwise_values(ctx, add, xi, ri), elementwise_values(ctx, add, xf, rf)
        if self.peepholes is not None:
            pre_i = elementwise_values(ctx, add, pre_i, elementwise_values(ctx, mul, self.peepholes[0], c))
            pre_f = elementwise_values(ctx, add, pre_f, elementwise_values(ctx, mul, self.peepholes[2], c))
        i, f = self.act(0, pre_i), self.act(0, pre_f)
        cell = self.act(1, elementwise_values(ctx, add, xc, rc))
        c_new = elementwise_values(
            ctx, add, elementwise_values(ctx, mul, f, c), elementwise_values(ctx, mul, i, cell)
        )
        pre_o = elementwise_values(ctx, add, xo, ro)
        if self.peepholes is not None:
            pre_o = elementwise_values(
                ctx, add, pre_o, elementwise_values(ctx, mul, self.peepholes[1], c_new)
            )
        o = self.act(0, pre_o)
        return elementwise_values(ctx, mul, o, self.act(2, c_new)), c_new

    def reset_projection(self, r_h: Value) -> Value:
        """(r * H) @ Rh^T + Rbh for GRU with linear_before_reset = 0."""
        ctx = self.ctx
        r_weights = split_first(ctx, self.r, 3)[2]
        product = batch_matmul(ctx, r_h, r_weights, (r_h.shape[0], self.hidden), adj_y=True)
        return elementwise_values(ctx, OPS.ADD, product, split_last(ctx, self.bias_h, 3)[2])


def split_first(ctx: LoweringContext, value: Value, parts: int) -> list[Value]:
    options = schema.SplitOptionsT()
    options.numSplits = parts
    shape = (value.shape[0] // parts, *value.shape[1:])
    axis = ctx.int32_tensor(np.array(0))
    return ctx.emit_multi(
        OPS.SPLIT, [axis, ctx.native(value)], [(shape, value.dtype)] * parts, options=options
    )


@lower("RNN", "GRU", "LSTM")
def lower_recurrent(ctx: LoweringContext, node: ir.Node) -> list[Value]:
    """RNN/GRU/LSTM(X, W, R, B, sequence_lens, initial_h[, initial_c, P]) -> Y, Y_h[, Y_c]."""
    x, weights = ctx.input(node, 0), ctx.input(node, 1)
    if len(node.inputs) > 4 and ctx.input(node, 4) is not None:
        raise Unsupported("sequence_lens (per-batch lengths)")
    if not x.static or x.dtype != np.float32:
        raise Unsupported("a recurrent op over a dynamic or non-float32 sequence")
    batch_first = attr(node, "layout", 0) == 1
    if batch_first:
        x = reorder(x, (1, 0, 2))
    direction = attr(node, "direction", "forward")
    directions = [False, True] if direction == "bidirectional" else [direction == "reverse"]
    names = attr(node, "activations", DEFAULTS[node.op_type] * len(directions))
    if any(name not in ACTIVATIONS for name in names) or attr(node, "input_forget", 0):
        raise Unsupported(f"activations {names} or input_forget (only Tanh/Sigmoid/Relu)")
    per_dir = len(DEFAULTS[node.op_type])
    seq, batch = x.shape[0], x.shape[1]
    hidden = attr(node, "hidden_size")
    flat = ctx.reshape(x, (seq * batch, x.shape[2]))
    ys, last_h, last_c = [], [], []
    for d, reverse in enumerate(directions):
        cell = Cell(ctx, node, d, names[d * per_dir : (d + 1) * per_dir])
        w = take(ctx, weights, d)
        projected = batch_matmul(ctx, flat, w, (seq * batch, w.shape[0]), adj_y=True)
        projected = ctx.reshape(projected, (seq, batch, w.shape[0]))
        h = initial_state(ctx, node, 5, d, batch, hidden)
        c = initial_state(ctx, node, 6, d, batch, hidden) if node.op_type == "LSTM" else None
        outputs = [None] * seq
        for t in reversed(range(seq)) if reverse else range(seq):
            h, c = cell.step(take(ctx, projected, t), h, c)
            outputs[t] = h
        ys.append(stack(ctx, outputs, 0))
        last_h.append(h)
        last_c.append(c)
    y = stack(ctx, ys, 1)
    y_h = stack(ctx, last_h, 0)
    results = [y, y_h] + ([stack(ctx, last_c, 0)] if node.op_type == "LSTM" else [])
    if batch_first:
        results = [reorder(results[0], (2, 0, 1, 3))] + [reorder(r, (1, 0, 2)) for r in results[1:]]
    return results[: len(node.outputs)]


def initial_state(
    ctx: LoweringContext, node: ir.Node, index: int, direction: int, batch: int, hidden: int
) -> Value:
    given = ctx.input(node, index) if len(node.inputs) > index else None
    if given is None:
        return ctx.const(np.zeros((batch, hidden), np.float32))
    if attr(node, "layout", 0) == 1:
        given = reorder(given, (1, 0, 2))
    return take(ctx, given, direction)
