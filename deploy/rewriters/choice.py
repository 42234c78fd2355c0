"""``self.experts[i](x)`` where ``i`` is a tensor value (``int(gate.argmax().item())``) or a
converted loop's counter (``for i in range(len(self.layers)): ... self.layers[i](x)``).

A Python list cannot be indexed by a value known only when the model runs. While exporting, such an
entry of a list / tuple / ``nn.ModuleList`` is a ``Choice``: calling it calls every entry under a
chain of conds on ``i == 0``, ``i == 1``, ... (one runs), and a list of tensors is stacked and
indexed. Plain Python indices (and every eager run) index the list as usual.
"""

from __future__ import annotations

import torch
from torch import nn

from deploy.rewriters import operators, sites, trace_state
from deploy.rewriters.casts import tensor
from deploy.rewriters.run_time_positions import read_at
from deploy.rewriters.string_keys import StringKey, keyed_entries
from deploy.rewriters.subscripts import getitem
from deploy.rewriters.values import as_tensor_value, is_symbolic, is_tracing

_CONTAINERS = (list, tuple, nn.ModuleList, nn.Sequential, nn.ParameterList)


class Choice:
    """The entry of ``items`` at a symbolic ``index``."""

    def __init__(self, items, index, site_id: int):
        # a 0-d tensor: the branches read it, and dynamo cannot lift an unbacked SymInt into them
        self.index = as_tensor_value(index).reshape(()).to(torch.int64)
        self.items, self.site_id = list(items), site_id

    def _is(self, k: int) -> torch.Tensor:
        return torch.remainder(self.index, len(self.items)) == k  # Python's negative indices too

    def __call__(self, *args, **kwargs):
        def pick(k: int):
            if k == len(self.items) - 1:
                return self.items[k](*args, **kwargs)
            then_fn, else_fn = (lambda: self.items[k](*args, **kwargs)), (lambda: pick(k + 1))
            if trace_state.in_loop_body_now():  # no cond nested in a Loop body (see trace_state.py)
                selected = operators.select(self._is(k), then_fn, else_fn)
                if selected is not None:
                    sites.mark_emitted(self.site_id, "index->where")
                    return selected
            return operators.emit_cond(self._is(k), then_fn, else_fn, self.site_id, (), "index->cond")

        return pick(0)

    def __getattr__(self, attribute: str):
        """``self.subsystems[i].essential``: an attribute every entry has. One value when they agree;
        numbers, bools or same-shaped tensors as a table read at the index; modules or other
        callables as a Choice among them."""
        if attribute.startswith("__") or "items" not in self.__dict__:
            raise AttributeError(attribute)
        values = [getattr(item, attribute) for item in self.items]
        first = values[0]
        if all(type(v) is type(first) and type(v) in (int, float, bool, str) and v == first for v in values):
            return first
        numbers = all(type(v) in (int, float) for v in values) or all(type(v) is bool for v in values)
        if numbers or all(isinstance(v, torch.Tensor) and v.shape == first.shape for v in values):
            return Choice(values, self.index, self.site_id).tensor()
        if all(callable(v) for v in values):
            return Choice(values, self.index, self.site_id)
        raise AttributeError(f"{attribute}: the entries' values differ in kind")

    def tensor(self) -> torch.Tensor:
        """The entry of a list of same-shaped tensors: stacked, then index_select."""
        if all(type(item) in (int, float, bool) for item in self.items):
            stacked = tensor(self.items)  # (not torch.as_tensor: a lifted constant in a graph op's body)
        else:
            stacked = torch.stack([torch.as_tensor(item) for item in self.items])
        index = torch.remainder(self.index.reshape(1), len(self.items))
        return stacked.index_select(0, index).squeeze(0)


def pick(container: object, index: object, site_id: int) -> object:
    """``container[index]``: a Choice for a symbolic index into a list of modules or tensors; for a
    string state's key (``self.heads[script]``), among the entries of the literals it may hold."""
    if isinstance(index, StringKey):
        container, index = keyed_entries(container, index), index.code
    if isinstance(container, (torch.Tensor, dict)):
        # a buffer indexed by a 0-d tensor: index_select, no .item(); a dict of numbers at a state
        # a converted loop carries (`self.setpoints[state]`): getitem's run-time lookup (mappings.py)
        return getitem(container, index)
    if not (is_tracing() and is_symbolic(index) and isinstance(container, _CONTAINERS)):
        return container[index]
    if isinstance(index, torch.Tensor) and (index.dim() > 0 or index.dtype.is_floating_point):
        return container[index]
    if not len(container):
        return container[index]
    if not any(callable(item) for item in container):
        row = read_at(container, index)  # `self.up[level]` of numbers: one table (run_time_positions)
        if row is not None:
            sites.mark_emitted(site_id, "index->select")
            return row
    choice = Choice(container, index, site_id)
    if all(isinstance(item, torch.Tensor) for item in choice.items):
        sites.mark_emitted(site_id, "index->select")
        return choice.tensor()
    if not all(callable(item) for item in choice.items):
        raise sites.get_site(site_id).error(
            "this list is indexed by a tensor value; only lists of modules/functions (called right away) or "
            "of same-shaped tensors can be indexed so while exporting"
        )
    return choice
