"""The tracer's record of which nn.Module calls are open, kept right when a try fails.

torch.export (non-strict) records every submodule call on a stack in its fx tracer: pushed when the
call starts, popped when it returns. A call that raises is never popped. When one of deploy's tries
runs user code at the top level and fails inside a submodule (a probe of a branch that calls
``self.enc`` on an unbacked size), and deploy then goes on with another way, the stale entry makes
the enclosing module's return fail with "Unexpected key _export_root.enc.1, expected
_export_root". ``kept_on_failure`` puts the stack back as it was before the try.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from torch.fx.experimental import proxy_tensor


def _module_stack() -> dict | None:
    tracer = proxy_tensor._CURRENT_MAKE_FX_TRACER
    fx_tracer = getattr(tracer, "fx_tracer", None)
    stack = getattr(fx_tracer, "module_stack", None)
    return stack if isinstance(stack, dict) else None


@contextlib.contextmanager
def kept_on_failure() -> Iterator[None]:
    """On an exception, the module stack as it was on entry (then the exception goes on)."""
    stack = _module_stack()
    saved = list(stack.items()) if stack is not None else None
    try:
        yield
    except BaseException:
        if stack is not None and saved is not None:
            stack.clear()
            stack.update(saved)
        raise
