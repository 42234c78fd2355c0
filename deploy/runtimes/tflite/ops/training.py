"""The ai.onnx.preview.training optimizer updates (Adagrad, Momentum, Adam) as elementwise math."""

from __future__ import annotations

import numpy as np
import onnx_ir as ir

from deploy.runtimes.tflite.builder import OPS
from deploy.runtimes.tflite.context import LoweringContext
from deploy.runtimes.tflite.ops._common import attr, unary_values
from deploy.runtimes.tflite.ops._expr import Expr
from deploy.runtimes.tflite.registry import lower
from deploy.runtimes.tflite.values import Value

DOMAIN = "ai.onnx.preview.training"


def operands(ctx: LoweringContext, node: ir.Node, groups: int) -> tuple[Value, Value, list[list[Value]]]:
    """(R as float32 scalar, T as float32 scalar, [X..., G..., V..., ...] split in ``groups`` lists)."""
    values = [ctx.input(node, i) for i in range(len(node.inputs))]
    rate, step = ctx.cast(values[0], np.float32), ctx.cast(values[1], np.float32)
    tensors = values[2:]
    n = len(tensors) // groups
    return rate, step, [tensors[i * n : (i + 1) * n] for i in range(groups)]


@lower("Adagrad", domain=DOMAIN)
def lower_adagrad(ctx: LoweringContext, node: ir.Node) -> list[Value]:
    """X_new = X - R / (1 + T * decay) * G' / (sqrt(H_new) + eps), H_new = H + G'^2, G' = norm * X + G."""
    e = Expr(ctx)
    rate, step, (xs, gs, hs) = operands(ctx, node, 3)
    decayed = e.div(rate, e.add(e.mul(step, attr(node, "decay_factor", 0.0)), 1.0))
    new_x, new_h = [], []
    for x, g, h in zip(xs, gs, hs):
        grad = e.add(e.mul(x, attr(node, "norm_coefficient", 0.0)), g)
        h_new = e.add(h, e.mul(grad, grad))
        root = e.add(unary_values(ctx, OPS.SQRT, h_new), attr(node, "epsilon", 1e-6))
        new_x.append(e.sub(x, e.div(e.mul(decayed, grad), root)))
        new_h.append(h_new)
    return new_x + new_h


@lower("Momentum", domain=DOMAIN)
def lower_momentum(ctx: LoweringContext, node: ir.Node) -> list[Value]:
    """V_new = alpha * V + beta' * G' (beta' = 1 at T = 0); X_new = X - R * V_new (or Nesterov's step)."""
    e = Expr(ctx)
    rate, step, (xs, gs, vs) = operands(ctx, node, 3)
    alpha, beta = attr(node, "alpha"), attr(node, "beta")
    started = e.op(OPS.GREATER, step, 0.0, np.bool_)
    beta_now = e.select(started, beta, 1.0)
    new_x, new_v = [], []
    for x, g, v in zip(xs, gs, vs):
        grad = e.add(e.mul(x, attr(node, "norm_coefficient", 0.0)), g)
        v_new = e.add(e.mul(v, alpha), e.mul(grad, beta_now))
        direction = (
            v_new if attr(node, "mode", "standard") == "standard" else e.add(grad, e.mul(v_new, alpha))
        )
        new_x.append(e.sub(x, e.mul(rate, direction)))
        new_v.append(v_new)
    return new_x + new_v


@lower("Adam", domain=DOMAIN)
def lower_adam(ctx: LoweringContext, node: ir.Node) -> list[Value]:
    """Adam with bias correction from T > 0 and the optional post-update weight decay."""
    e = Expr(ctx)
    rate, step, (xs, gs, vs, hs) = operands(ctx, node, 4)
    alpha, beta = attr(node, "alpha", 0.9), attr(node, "beta", 0.999)
    correction = e.div(unary_values(ctx, OPS.SQRT, e.sub(1.0, e.op(OPS.POW, beta, step))),
                       e.sub(1.0, e.op(OPS.POW, alpha, step)))  # fmt: skip
    rate_now = e.select(e.op(OPS.GREATER, step, 0.0, np.bool_), e.mul(rate, correction), rate)
    new_x, new_v, new_h = [], [], []
    for x, g, v, h in zip(xs, gs, vs, hs):
        grad = e.add(e.mul(x, attr(node, "norm_coefficient", 0.0)), g)
        v_new = e.add(e.mul(v, alpha), e.mul(grad, 1.0 - alpha))
        h_new = e.add(e.mul(h, beta), e.mul(e.mul(grad, grad), 1.0 - beta))
        root = e.add(unary_values(ctx, OPS.SQRT, h_new), attr(node, "epsilon", 1e-6))
        x_new = e.sub(x, e.mul(rate_now, e.div(v_new, root)))
        new_x.append(e.mul(x_new, 1.0 - attr(node, "norm_coefficient_post", 0.0)))
        new_v.append(v_new)
        new_h.append(h_new)
    return new_x + new_v + new_h
