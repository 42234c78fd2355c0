"""Map errors and code back to the user's source: file:line, a short source window."""

from __future__ import annotations

import linecache
import os
import re
import traceback
from pathlib import Path

_INTERNAL = (
    os.sep + "site-packages" + os.sep,
    os.sep + "torch" + os.sep,
    os.sep + "deploy" + os.sep,
    "<frozen",
)


def is_user_file(filename: str) -> bool:
    """True for a file written by the user (not torch, not deploy itself, not the stdlib)."""
    if not filename or filename.startswith("<"):
        return False
    return not any(part in filename for part in _INTERNAL) and "/lib/python3" not in filename


def source_window(file: str, line: int, context: int = 2) -> str:
    """A few numbered source lines around ``line`` with the line itself marked by '>'."""
    out = []
    for n in range(max(1, line - context), line + context + 1):
        text = linecache.getline(file, n)
        if not text and n > line:
            break
        out.append(f"{'>' if n == line else ' '} {n:4d} | {text.rstrip()}")
    return "\n".join(out)


def innermost_user_frame(tb, prefer: str | None = None) -> tuple[str, int] | None:
    """The deepest traceback frame in user code (in ``prefer`` if given and present)."""
    frames = traceback.extract_tb(tb)
    if prefer:
        preferred = [f for f in frames if Path(f.filename) == Path(prefer)]
        if preferred:
            return preferred[-1].filename, preferred[-1].lineno
    user = [f for f in frames if is_user_file(f.filename)]
    return (user[-1].filename, user[-1].lineno) if user else None


_RAISED_BY = re.compile(r'File "([^"]+)", line (\d+)')


def user_frame_in_message(message: str) -> tuple[str, int] | None:
    """The last user-code 'File "...", line N' that torch quotes inside an error message."""
    hits = [(f, int(n)) for f, n in _RAISED_BY.findall(message) if is_user_file(f)]
    return hits[-1] if hits else None
