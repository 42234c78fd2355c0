"""deploy: eager PyTorch (dynamic graphs) to verified static-graph artifacts for phones, boards and GPUs.

The public API lives in :mod:`deploy.api`; it is re-exported here lazily so that
``import deploy`` stays cheap (torch is imported only when a function needs it).
"""

from __future__ import annotations

__version__ = "0.1.0"

_API = {"export", "check_ops", "bench", "devices", "ExportResult"}


def __getattr__(name: str):
    if name in _API:
        from deploy import api

        return getattr(api, name)
    raise AttributeError(f"module 'deploy' has no attribute {name!r}")


__all__ = sorted(_API)
