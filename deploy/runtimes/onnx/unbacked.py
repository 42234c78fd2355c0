"""Let torch.onnx's decompositions retrace graph ops whose outputs carry unbacked sizes.

A ``torch.cond`` whose branches return different lengths (``q.view(1)`` on one side,
``torch.stack(hist)`` on the other) has an output of unbacked size. torch.onnx runs the program's
decompositions, which retrace each branch with make_fx; the retrace sees the cond's unbacked size as
"pending" and raises ``PendingUnbackedSymbolNotFound`` although nothing is wrong with the program.
torch's ``soft_pending_unbacked_not_found_error`` turns that check off (only while translating:
every artifact is still verified against eager PyTorch). Torch builds without the flag are left as
they are.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def unbound_unbacked_sizes_allowed() -> Iterator[None]:
    import torch.fx.experimental._config as config

    if not hasattr(config, "soft_pending_unbacked_not_found_error"):
        yield
        return
    with config.patch(soft_pending_unbacked_not_found_error=True):
        yield
