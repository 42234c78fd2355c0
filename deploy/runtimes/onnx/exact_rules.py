"""torch.onnx's graph optimizer (onnxscript's default rewrite rules) matches the constants of its
patterns *approximately*: ``x + 0`` matches ``x + 1e-9`` (absolute tolerance 1e-8) and ``x * 1``
matches ``x * 1.000005`` (relative tolerance 1e-5), and the "no-op" is removed. ``log10(p + 1e-9)``
then loses its epsilon and computes -83.7 dB where eager computes -82.8 for a quiet signal. Within
``exact_constant_patterns()`` every such pattern constant matches only its exact value.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager


def _pattern_constants() -> list:
    try:
        from onnxscript.rewriter import _DEFAULT_REWRITE_RULES
        from onnxscript.rewriter._pattern_ir import Constant
    except ImportError:  # another onnxscript layout: nothing to tighten
        return []
    found = []
    for rule in _DEFAULT_REWRITE_RULES:
        for node in getattr(rule, "_target_pattern", None) or ():
            found.extend(v for v in getattr(node, "inputs", ()) if isinstance(v, Constant))
    return found


@contextmanager
def exact_constant_patterns() -> Iterator[None]:
    constants = _pattern_constants()
    saved = [(c._rel_tol, c._abs_tol) for c in constants]
    for c in constants:
        c._rel_tol, c._abs_tol = 0.0, 0.0
    try:
        yield
    finally:
        for c, (rel, abs_) in zip(constants, saved):
            c._rel_tol, c._abs_tol = rel, abs_
