"""Modules a Python loop appended under tensor tests, while exporting:

    staged = []
    for idx in self.lead_order:
        if capacity >= required:
            break                                   # a tensor test
        staged.append(self.chillers[idx])
    for chiller in staged:
        power = power + chiller(load)

Which modules the list holds is known only when the model runs, so the list keeps every module
the loop could append with a flag each (KeptObjects, from compacted.compact). ``len`` counts the
flags; the ``k``-th entry, read at a graph loop's counter, is a Choice (choice.py) among the
modules at the position of the ``k``-th flag, so calling it or reading its attributes runs the
one the eager list holds there. Eagerly the loop builds the plain list.
"""

from __future__ import annotations

import torch

from deploy.rewriters.choice import Choice


class KeptObjects:
    """``items`` (modules) with a flag each (a bool, or a 0-d bool tensor) for whether it is in the
    list; ``site_id``: the site whose conds calling an entry emits."""

    def __init__(self, items: list, flags: list, site_id: int):
        self.items, self.site_id = list(items), site_id
        self.flags = torch.stack([torch.as_tensor(f, dtype=torch.bool).reshape(()) for f in flags])

    def length(self) -> torch.Tensor:
        """How many entries the list holds (a 0-d int64 tensor)."""
        return self.flags.to(torch.int64).sum()

    def at(self, index: object) -> Choice:
        """The ``index``-th entry held (negative: from the end)."""
        position = torch.as_tensor(index, dtype=torch.int64).reshape(())
        position = torch.where(position < 0, position + self.length(), position)
        rank = self.flags.to(torch.int64).cumsum(0) - 1
        hit = torch.logical_and(self.flags, rank == position).to(torch.int64)
        return Choice(self.items, hit.argmax(), self.site_id)

    __getitem__ = at

    def __iter__(self):
        raise TypeError(
            "a list of modules appended under tensor tests is iterated only by a `for` loop over it"
        )


def kept_objects(earlier: list, items: list, flags: list, site_id: int) -> KeptObjects | None:
    """The list of ``earlier`` (held) then ``items`` held where their ``flags`` say (None: a
    position no path appended to, never held); None when they are not all modules."""
    pairs = [(v, True) for v in earlier] + [(v, k) for v, k in zip(items, flags) if v is not None]
    if not pairs or not all(isinstance(v, torch.nn.Module) for v, _ in pairs):
        return None
    return KeptObjects([v for v, _ in pairs], [k for _, k in pairs], site_id)
