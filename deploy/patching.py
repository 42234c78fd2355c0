"""One attribute of a torch module or class replaced for the duration of a ``with`` block.

deploy adjusts a few torch internals while it exports or translates (a guard decided obliviously,
a registry built once per process, ...); each replacement is undone on the way out, also when the
block raises, so nothing leaks into the user's other torch calls.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def patched(owner: object, name: str, replacement: object) -> Iterator[None]:
    """Within: ``owner.name`` is ``replacement``; afterwards what ``owner`` itself held (a class's own
    entry, e.g. a classmethod object, or nothing where it inherited the attribute)."""
    own = vars(owner)
    had = name in own
    original = own.get(name)
    setattr(owner, name, replacement)
    try:
        yield
    finally:
        if had:
            setattr(owner, name, original)
        else:
            delattr(owner, name)
