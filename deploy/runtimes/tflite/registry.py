"""The lowering registry: one function per ONNX op type, registered with ``@lower("OpType")``.

A lowering takes the lowering context and an onnx-ir node and returns the node's output
values (one ``Value`` or a list). It raises ``Unsupported(reason)`` for a case it cannot
handle. User code may register more lowerings (custom ops) with the same decorator.
"""

from __future__ import annotations

from collections.abc import Callable

LOWERINGS: dict[tuple[str, str], Callable] = {}


def lower(*op_types: str, domain: str = "") -> Callable[[Callable], Callable]:
    """Register the decorated function as the lowering of ``op_types`` in ``domain``."""

    def register(fn: Callable) -> Callable:
        for op_type in op_types:
            LOWERINGS[(domain, op_type)] = fn
        return fn

    return register


def find(op_type: str, domain: str = "") -> Callable | None:
    """The lowering of ``op_type`` (the default ONNX domain may be spelt '' or 'ai.onnx')."""
    _load_builtin()
    domain = "" if domain == "ai.onnx" else domain
    return LOWERINGS.get((domain, op_type))


def supported_ops() -> list[str]:
    _load_builtin()
    return sorted(op for domain, op in LOWERINGS if domain == "")


_loaded = False


def _load_builtin() -> None:
    """Import the built-in lowerings once; lowerings the user registered before stay in force."""
    global _loaded
    if not _loaded:
        _loaded = True
        user = dict(LOWERINGS)
        import deploy.runtimes.tflite.ops  # noqa: F401  (registers the built-in lowerings)

        LOWERINGS.update(user)
