"""Factory functions whose size argument torch takes as a plain int, and so specialises while
exporting: ``torch.hann_window(n)``, ``torch.fft.rfftfreq(n, d)``, ``torch.fft.fftfreq(n, d)`` over a
dynamic size ``n`` (the window of a spectrum whose length is the input's) would be fixed at the
example's size. While exporting with a symbolic ``n`` they are written with an arange, the way
torch's kernels compute them; otherwise they are torch's own (passes/calls.py routes the calls).
"""

from __future__ import annotations

import math

import torch

from deploy.rewriters.values import as_tensor_value, is_sym_int, is_tracing


def _symbolic(n: object, kwargs: dict, allowed: set[str]) -> bool:
    return is_tracing() and is_sym_int(n) and not set(kwargs) - allowed


def hann_window(n, periodic: bool = True, **kwargs) -> torch.Tensor:
    """``torch.hann_window``: ``0.5 - 0.5 cos(2 pi i / N)``, N = n (periodic) or n - 1, and 1 for n = 1."""
    if not _symbolic(n, kwargs, {"dtype", "device"}):
        return torch.hann_window(n, periodic, **kwargs)
    dtype = kwargs.get("dtype") or torch.get_default_dtype()
    index = torch.arange(n, dtype=dtype, device=kwargs.get("device"))
    period = as_tensor_value(n if periodic else n - 1).to(dtype)
    window = torch.cos(index * (2 * math.pi / torch.clamp(period, min=1))) * -0.5 + 0.5
    return torch.where(as_tensor_value(n) == 1, torch.ones_like(window), window)


def rfftfreq(n, d: float = 1.0, **kwargs) -> torch.Tensor:
    """``torch.fft.rfftfreq``: ``0 .. n // 2`` times ``1 / (n d)``."""
    if not _symbolic(n, kwargs, {"dtype", "device"}):
        return torch.fft.rfftfreq(n, d, **kwargs)
    dtype = kwargs.get("dtype") or torch.get_default_dtype()
    steps = torch.arange(n // 2 + 1, dtype=dtype, device=kwargs.get("device"))
    return steps * (1.0 / (as_tensor_value(n).to(dtype) * d))


def fftfreq(n, d: float = 1.0, **kwargs) -> torch.Tensor:
    """``torch.fft.fftfreq``: ``0 .. (n - 1) // 2, -(n // 2) .. -1`` times ``1 / (n d)``."""
    if not _symbolic(n, kwargs, {"dtype", "device"}):
        return torch.fft.fftfreq(n, d, **kwargs)
    dtype = kwargs.get("dtype") or torch.get_default_dtype()
    index = torch.arange(n, dtype=torch.int64, device=kwargs.get("device"))
    signed = torch.where(index < (n + 1) // 2, index, index - n)
    return signed.to(dtype) * (1.0 / (as_tensor_value(n).to(dtype) * d))
