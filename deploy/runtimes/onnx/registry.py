"""torch.onnx's table of torchlib translations, built once per process and opset.

torch.onnx.export builds its registry anew on every call (``ONNXRegistry.from_torchlib``): every
torchlib function looked up and registered again, about 0.4 s each time, which a command exporting
several programs (the retries, ONNX then TFLite, the test suite's hundreds of exports) pays each time.
Within ``torchlib_registry_reused()`` each call gets a copy of the first one built: its own dict of
lists (torch.onnx registers the custom translations of that export into it), the same entries
(which nothing changes once built).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from deploy.patching import patched

_BUILT: dict = {}


@contextmanager
def torchlib_registry_reused() -> Iterator[None]:
    try:
        from torch.onnx._internal.exporter import _registration
    except ImportError:  # another torch.onnx layout: it builds its own registry
        yield
        return
    registry_class = _registration.ONNXRegistry
    original = registry_class.__dict__.get("from_torchlib")
    if not isinstance(original, classmethod):
        yield
        return

    def from_torchlib(cls, *args, **kwargs):
        key = (cls, args, tuple(sorted(kwargs.items())))
        if key not in _BUILT:
            _BUILT[key] = original.__func__(cls, *args, **kwargs)
        built = _BUILT[key]
        registry = cls.__new__(cls)
        registry.__dict__.update(built.__dict__)
        registry.functions = {target: list(entries) for target, entries in built.functions.items()}
        return registry

    with patched(registry_class, "from_torchlib", classmethod(from_torchlib)):
        yield
