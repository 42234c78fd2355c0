"""Size guards torch.export keeps without saying so.

A guard that relates two dynamic dims, ``m <= n`` from ``y / torch.diagonal(a)`` (``y`` of ``m`` rows,
the diagonal of ``min(m, n)``) traced under ``if m == n``, is no "Constraints violated" error: torch
cannot express it as a dim's range, so the program keeps it as code its own ``module()`` checks
(``ExportedProgram._guards_code``) and the ONNX or TFLite graph drops. The export then looks fine and
is wrong wherever the guard fails. ``unproven_guards`` finds such guards: those over the input sizes
that fail somewhere in the dims' ranges. For a guard over one dim every size of its range is tried
(as Python arithmetic), for one over several the ends and middles of their ranges.
"""

from __future__ import annotations

import itertools

import sympy
import torch

from deploy.exporter.range_guards import MAX_SIZES, _holds_fast

_MAX_DIMS = 4  # dims a guard over several is tried on (5 sizes each)


def unproven_guards(program: torch.export.ExportedProgram) -> list[str]:
    """The guards of ``program``'s shape environment over input sizes that fail at some size the
    dynamic shapes allow, as text; empty when there are none (or no shape environment)."""
    from torch.export.exported_program import _get_shape_env

    shape_env = _get_shape_env(program.graph_module)
    if shape_env is None:
        return []
    ranges = program.range_constraints
    failing = []
    for guard in shape_env.guards:
        expr = guard.expr
        symbols = expr.free_symbols
        if not symbols or not symbols <= set(ranges) or any(str(s).startswith("u") for s in symbols):
            continue  # a constant, a weight's size or a data-dependent one: not a question of input sizes
        if not _holds(expr, ranges):
            failing.append(str(expr))
    return failing


def _holds(expr: sympy.Basic, ranges: dict) -> bool:
    symbols = sorted(expr.free_symbols, key=str)
    if len(symbols) > _MAX_DIMS:
        return True  # too many to try: left to verification
    bounds = []
    for symbol in symbols:
        try:
            bounds.append((int(ranges[symbol].lower), int(ranges[symbol].upper)))
        except (TypeError, ValueError, OverflowError):
            return True  # an unbounded dim: left to verification
    if len(symbols) == 1 and bounds[0][1] - bounds[0][0] <= MAX_SIZES:
        every = _holds_fast(expr, symbols[0], None, *bounds[0])  # every size, as Python arithmetic
        if every is not None:
            return every
    tries = [
        sorted({low, min(low + 1, high), (low + high) // 2, max(high - 1, low), high}) for low, high in bounds
    ]
    for sizes in itertools.product(*tries):
        if expr.xreplace({s: sympy.Integer(v) for s, v in zip(symbols, sizes)}) is not sympy.true:
            return False
    return True
