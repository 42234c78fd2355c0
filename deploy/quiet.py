"""Silence torch's own logging, warnings and prints while deploy drives it.

torch.export and torch.onnx log graphs and guard traces at WARNING/ERROR level when a trace
fails; deploy turns those failures into one clear line, so the noise is held back (unless
DEPLOY_TORCH_LOGS=1).
"""

from __future__ import annotations

import contextlib
import io
import logging
import os
import warnings
from collections.abc import Iterator


@contextlib.contextmanager
def quiet_torch() -> Iterator[None]:
    if os.environ.get("DEPLOY_TORCH_LOGS"):
        yield
        return
    names = [
        n
        for n in logging.root.manager.loggerDict
        if n == "torch" or n.startswith(("torch.", "onnxscript", "onnx_ir"))
    ]
    loggers = [logging.getLogger(n) for n in names + ["torch"]]
    saved = [(lg, lg.level, lg.disabled) for lg in loggers]
    for lg in loggers:
        lg.disabled = True
        lg.setLevel(logging.CRITICAL)  # loggers created later inherit this from 'torch'
    try:
        with (
            warnings.catch_warnings(),
            contextlib.redirect_stdout(io.StringIO()),
            contextlib.redirect_stderr(io.StringIO()),
        ):
            warnings.simplefilter("ignore")
            yield
    finally:
        for lg, level, disabled in saved:
            lg.setLevel(level)
            lg.disabled = disabled
