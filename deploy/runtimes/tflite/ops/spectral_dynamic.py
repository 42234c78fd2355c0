"""DFT of a real signal whose length is a run-time size: the transform matrices built at run time.

A spectrum of the input's own length (``torch.fft.rfft(x * window)`` with the samples a dynamic
dim) has no constant transform matrix. Its entries are ``cos`` and ``sin`` of ``2 pi (k t mod n) /
n`` for output bin ``k`` and sample ``t``: ``k t mod n`` is computed exactly in int32 (before the
float angle, so that long signals keep their phase), the matrices come from COS and SIN, and the
real and imaginary parts are two BATCH_MATMULs of the signal rows with them, packed as ONNX's
trailing (real, imaginary) pair. Forward transforms of a real signal (one component) along a dim
whose only run-time size is the transformed one, to the signal's length or a run-time
``dft_length`` (samples past it dropped); ``onesided`` keeps bins ``0 .. n // 2``. The one-sided
inverse of a complex spectrum (``torch.fft.irfft``, an autocorrelation's ``irfft(|X|^2)``) is the
same product the other way (``lower_dynamic_inverse_dft``).
"""

from __future__ import annotations

import math

import numpy as np
import onnx_ir as ir
from ai_edge_litert import schema_py_generated as schema

from deploy.runtimes.tflite.builder import OPS
from deploy.runtimes.tflite.context import LoweringContext
from deploy.runtimes.tflite.ops._common import elementwise_values, unary_values
from deploy.runtimes.tflite.ops.matmul import batch_matmul
from deploy.runtimes.tflite.values import Unsupported, Value

MAX_SAMPLES = 1 << 15  # k t stays exact in int32 up to this length


def lower_dynamic_dft(
    ctx: LoweringContext, x: Value, axis: int, onesided: bool, length: Value | None
) -> Value:
    """DFT along ``axis`` of a real ``x`` ([..., m, 1] in ONNX order, m a run-time size) of length
    ``length`` (a run-time value; m when None): samples beyond it are dropped, missing ones zero."""
    if x.shape[-1] != 1:
        raise Unsupported("DFT of a complex signal of a run-time length")
    signal = _signal_rows(ctx, x, axis, ())
    rows = signal.shape[0]
    samples = _length(ctx, x, axis)
    n = samples if length is None else ctx.cast(ctx.reshape(length, ()), np.int32)
    bins = _int_binary(ctx, OPS.ADD, _int_binary(ctx, OPS.FLOOR_DIV, n, 2), 1) if onesided else n
    k, t = _range(ctx, bins), _range(ctx, samples)
    angle = _angles(ctx, k, t, n)  # (bins, samples)
    kept = ctx.cast(elementwise_values(ctx, OPS.LESS, t, n, dtype=np.bool_), np.float32)  # t < n
    cosine = elementwise_values(ctx, OPS.MUL, unary_values(ctx, OPS.COS, angle), kept)
    sine = elementwise_values(ctx, OPS.MUL, unary_values(ctx, OPS.SIN, angle), kept)
    real = batch_matmul(ctx, signal, cosine, (rows, None), adj_y=True)
    sine = batch_matmul(ctx, signal, sine, (rows, None), adj_y=True)
    imaginary = unary_values(ctx, OPS.NEG, sine)
    options = schema.PackOptionsT()
    options.axis, options.valuesCount = 2, 2
    packed = ctx.emit(
        OPS.PACK, [ctx.native(real), ctx.native(imaginary)], (rows, None, 2), np.float32, options=options
    )
    return _in_onnx_order(ctx, packed, x, axis, 2)


def lower_dynamic_inverse_dft(ctx: LoweringContext, x: Value, axis: int, length: Value | None) -> Value:
    """The one-sided inverse DFT (``torch.fft.irfft(spectrum, n)``) of a complex ``x`` ([..., m, 2],
    m bins, a run-time size or a run-time ``n``): the real signal ``x[t] = (1/n) sum_k w_k (Re X_k
    cos(2 pi k t / n) - Im X_k sin(2 pi k t / n))`` over the bins ``k < min(m, n // 2 + 1)`` (missing
    ones zero, as torch pads them), ``w_k`` 1 for bin 0 and bin ``n / 2``, 2 for the others (their
    mirror images); the imaginary parts of those two bins drop out, as in torch. ``n`` is
    ``2 (m - 1)`` when not given. Output [..., n, 1]."""
    spectrum = _signal_rows(ctx, x, axis, (2,))
    rows = spectrum.shape[0]
    bins_in = _length(ctx, x, axis)
    if length is None:
        n = _int_binary(ctx, OPS.MUL, _int_binary(ctx, OPS.SUB, bins_in, 1), 2)
    else:
        n = ctx.cast(ctx.reshape(length, ()), np.int32)
    k, t = _range(ctx, bins_in), _range(ctx, n)
    angle = _angles(ctx, k, t, n)  # (bins, n)
    # weight w_k / n per bin: 0 past n // 2, 1 at 0 and at n / 2 (n even), 2 between
    half = _int_binary(ctx, OPS.FLOOR_DIV, n, 2)
    used = ctx.cast(elementwise_values(ctx, OPS.LESS_EQUAL, k, half, dtype=np.bool_), np.float32)
    twice = ctx.cast(
        elementwise_values(ctx, OPS.GREATER, k, ctx.const(np.array(0, np.int32)), dtype=np.bool_), np.float32
    )
    mirrored = _int_binary(ctx, OPS.MUL, k, 2)
    alone = ctx.cast(elementwise_values(ctx, OPS.EQUAL, mirrored, n, dtype=np.bool_), np.float32)
    weight = elementwise_values(ctx, OPS.ADD, ctx.const(np.array(1.0, np.float32)), twice)
    weight = elementwise_values(ctx, OPS.SUB, weight, alone)
    weight = elementwise_values(ctx, OPS.MUL, weight, used)
    weight = elementwise_values(ctx, OPS.DIV, weight, ctx.cast(n, np.float32))
    weight = ctx.reshape(weight, (None, 1))
    cosine = elementwise_values(ctx, OPS.MUL, unary_values(ctx, OPS.COS, angle), weight)
    sine = elementwise_values(ctx, OPS.MUL, unary_values(ctx, OPS.SIN, angle), weight)
    real = batch_matmul(ctx, _component(ctx, spectrum, 0), cosine, (rows, None))
    imaginary = batch_matmul(ctx, _component(ctx, spectrum, 1), sine, (rows, None))
    signal = elementwise_values(ctx, OPS.SUB, real, imaginary)
    return _in_onnx_order(ctx, signal, x, axis, 1)


def _signal_rows(ctx: LoweringContext, x: Value, axis: int, trailing: tuple) -> Value:
    """``x`` ([..., m, c] in ONNX order) as (rows, m, *trailing): the transformed dim second, every
    other dim (static) folded into the rows."""
    rank = x.rank
    rest = [i for i in range(rank - 1) if i != axis]
    if any(x.shape[i] is None for i in rest):
        raise Unsupported("DFT with run-time sizes besides the transformed one")
    rows = int(np.prod([x.shape[i] for i in rest])) if rest else 1
    shape = (rows, None, *trailing)
    moved = ctx.tensor(x, (*rest, axis, rank - 1))
    tensor = ctx.reshape_tensor(moved, shape, np.float32)
    return Value(ctx.sg.tensors[tensor].name, shape, np.dtype(np.float32), tensor=tensor)


def _angles(ctx: LoweringContext, k: Value, t: Value, n: Value) -> Value:
    """``2 pi (k t mod n) / n`` for every bin ``k`` and sample ``t``: ``k t mod n`` exact in int32
    before the float angle, so that long signals keep their phase."""
    phase = _int_binary(ctx, OPS.MUL, ctx.reshape(k, (None, 1)), ctx.reshape(t, (1, None)))
    phase = _int_binary(ctx, OPS.FLOOR_MOD, phase, n)
    step = elementwise_values(
        ctx, OPS.DIV, ctx.const(np.array(2 * math.pi, np.float32)), ctx.cast(n, np.float32)
    )
    return elementwise_values(ctx, OPS.MUL, ctx.cast(phase, np.float32), step)


def _in_onnx_order(ctx: LoweringContext, value: Value, x: Value, axis: int, last: int) -> Value:
    """(rows, n[, last]) rows of ``_signal_rows(x)`` back in ``x``'s ONNX order, ``last`` entries in the
    trailing dim."""
    rank = x.rank
    rest = [i for i in range(rank - 1) if i != axis]
    out_shape = list(x.shape)
    out_shape[axis], out_shape[-1] = None, last
    if not rest:
        return ctx.reshape(value, tuple(out_shape))
    ordered = ctx.reshape(value, (*[x.shape[i] for i in rest], None, last))
    perm = (*rest, axis, rank - 1)
    return _transposed(ctx, ordered, tuple(int(i) for i in np.argsort(perm)), tuple(out_shape))


def _component(ctx: LoweringContext, spectrum: Value, index: int) -> Value:
    """The real (0) or imaginary (1) parts of a (rows, bins, 2) spectrum, as (rows, bins)."""
    options = schema.GatherOptionsT()
    options.axis = 2
    return ctx.emit(
        OPS.GATHER,
        [ctx.native(spectrum), ctx.int32_tensor(np.array(index))],
        spectrum.shape[:2],
        np.float32,
        options=options,
    )


def _length(ctx: LoweringContext, x: Value, axis: int) -> Value:
    shape = ctx.shape_of(x, "int32")
    options = schema.GatherOptionsT()
    return ctx.emit(
        OPS.GATHER, [ctx.native(shape), ctx.int32_tensor(np.array(axis))], (), np.int32, options=options
    )


def _range(ctx: LoweringContext, count: Value) -> Value:
    zero, one = ctx.const(np.array(0, np.int32)), ctx.const(np.array(1, np.int32))
    return ctx.emit(OPS.RANGE, [ctx.native(zero), ctx.native(count), ctx.native(one)], (None,), np.int32)


def _int_binary(ctx: LoweringContext, code: int, a: Value, b) -> Value:
    b = b if isinstance(b, Value) else ctx.const(np.array(b, np.int32))
    return elementwise_values(ctx, code, a, b, dtype=np.int32)


def _transposed(ctx: LoweringContext, value: Value, perm: tuple, shape: tuple) -> Value:
    options = schema.TransposeOptionsT()
    return ctx.emit(
        OPS.TRANSPOSE,
        [ctx.native(value), ctx.int32_tensor(np.array(perm))],
        shape,
        np.float32,
        options=options,
    )


def dynamic_dft_applies(node: ir.Node, x: Value, axis: int, length: Value | None) -> bool:
    """A forward DFT of a real signal of a run-time length, or to a run-time dft_length; or a
    one-sided inverse DFT of a complex spectrum (irfft) with either."""
    from deploy.runtimes.tflite.ops._common import attr

    if x.shape is None:
        return False
    run_time = x.shape[axis] is None or (length is not None and length.const is None)
    if not run_time or x.dtype != np.float32:
        return False
    if attr(node, "inverse", 0):
        return bool(attr(node, "onesided", 0)) and x.shape[-1] == 2
    return True
