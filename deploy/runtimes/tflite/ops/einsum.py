"""Einsum (``torch.einsum("c,chw->hw", weights, image)``) as broadcast products and one SUM.

Each operand is transposed into one common letter order (the output's letters, then the summed
ones), given unit dims (EXPAND_DIMS, so run-time sizes need no known shape) for the letters it
lacks, multiplied by the others with broadcasting, and summed over the letters the output drops.
That is the definition of einsum; it needs no reshape of run-time sizes (a BATCH_MATMUL form would),
at the cost of the full broadcast product in memory. Ellipses and repeated letters in one operand
(diagonals) are not lowered.
"""

from __future__ import annotations

import numpy as np
import onnx_ir as ir

from deploy.runtimes.tflite.builder import OPS
from deploy.runtimes.tflite.context import LoweringContext
from deploy.runtimes.tflite.ops._common import attr, elementwise_values
from deploy.runtimes.tflite.ops.reduction import reduce
from deploy.runtimes.tflite.registry import lower
from deploy.runtimes.tflite.values import Unsupported, Value

_MAX_RANK = 6  # the broadcast rank TFLite's MUL takes


def parse(equation: str, count: int) -> tuple[list[str], str]:
    """(letters of each operand, letters of the output) of an explicit or implicit equation."""
    equation = equation.replace(" ", "")
    if "." in equation:
        raise Unsupported("Einsum with an ellipsis")
    lhs, arrow, out = equation.partition("->")
    terms = lhs.split(",")
    if len(terms) != count:
        raise Unsupported(f"Einsum equation {equation!r} for {count} inputs")
    if not arrow:  # implicit: the letters seen once, in alphabetical order
        letters = "".join(terms)
        out = "".join(sorted(c for c in set(letters) if letters.count(c) == 1))
    for term in (*terms, out):
        if len(set(term)) != len(term):
            raise Unsupported(f"Einsum with a repeated letter in {term!r}")
    if set(out) - set("".join(terms)):
        raise Unsupported(f"Einsum output letters {out!r} not in its inputs")
    return terms, out


@lower("Einsum")
def lower_einsum(ctx: LoweringContext, node: ir.Node) -> Value:
    operands = [ctx.input(node, i) for i in range(len(node.inputs))]
    terms, out = parse(attr(node, "equation"), len(operands))
    summed = [c for c in dict.fromkeys("".join(terms)) if c not in out]
    order = [*out, *summed]
    if len(order) > _MAX_RANK:
        raise Unsupported(f"Einsum over {len(order)} letters (at most {_MAX_RANK})")
    sizes: dict[str, int | None] = {}
    for term, value in zip(terms, operands):
        if value.shape is None or len(value.shape) != len(term):
            raise Unsupported("Einsum operand of unknown or mismatched rank")
        for c, d in zip(term, value.shape):
            sizes[c] = d if sizes.get(c) in (None, 1) else sizes[c]
    product = None
    for term, value in zip(terms, operands):
        aligned = _aligned(ctx, value, term, order)
        product = aligned if product is None else elementwise_values(ctx, OPS.MUL, product, aligned)
    if summed:
        axes = list(range(len(out), len(order)))
        product = reduce(ctx, OPS.SUM, product, axes, keepdims=False)
    if product.shape != tuple(sizes[c] for c in out):
        product = Value(product.name, tuple(sizes[c] for c in out), product.dtype, tensor=ctx.native(product))
    return product


def _aligned(ctx: LoweringContext, value: Value, term: str, order: list[str]) -> Value:
    """``value`` transposed into ``order`` with a unit dim for each letter it lacks."""
    own = sorted(term, key=order.index)
    perm = tuple(term.index(c) for c in own)
    tensor = ctx.tensor(value, perm)
    shape = [value.shape[p] for p in perm]
    for position, c in enumerate(order):
        if c in term:
            continue
        shape.insert(position, 1)
        out = ctx.new_tensor(tuple(shape), value.dtype, name="einsum_unit")
        ctx.sg.add_op(OPS.EXPAND_DIMS, [tensor, ctx.int32_tensor(np.array(position))], [out])
        tensor = out
    return Value(ctx.name("einsum_operand"), tuple(shape), value.dtype, tensor=tensor)
