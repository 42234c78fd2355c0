"""Expr: terse elementwise arithmetic over lowered values, for lowerings written as formulas."""

from __future__ import annotations

import numpy as np

from deploy.runtimes.tflite.builder import OPS
from deploy.runtimes.tflite.context import LoweringContext
from deploy.runtimes.tflite.ops._common import elementwise_values
from deploy.runtimes.tflite.values import Value

F32 = np.float32


class Expr:
    """Tiny arithmetic helper over lowered values (python numbers become constants)."""

    def __init__(self, ctx: LoweringContext):
        self.ctx = ctx

    def v(self, x) -> Value:
        return x if isinstance(x, Value) else self.ctx.const(np.array(x, F32))

    def op(self, code, a, b, dtype=None) -> Value:
        return elementwise_values(self.ctx, code, self.v(a), self.v(b), dtype=dtype)

    def add(self, a, b):
        return self.op(OPS.ADD, a, b)

    def sub(self, a, b):
        return self.op(OPS.SUB, a, b)

    def mul(self, a, b):
        return self.op(OPS.MUL, a, b)

    def div(self, a, b):
        return self.op(OPS.DIV, a, b)

    def select(self, cond: Value, a, b) -> Value:
        a, b = self.v(a), self.v(b)
        shape = a.shape if a.rank else b.shape
        return self.ctx.emit(
            OPS.SELECT_V2, [self.ctx.native(cond), self.ctx.native(a), self.ctx.native(b)], shape, F32
        )
