"""rewrite_module: convert the forward of a module and of its user-defined submodules, on a
structural copy of the module tree that shares every parameter and buffer with the original
(the original keeps its eager forward, so it stays the reference to verify against)."""

from __future__ import annotations

import copy
import inspect
import types
from dataclasses import dataclass, field

import torch

from deploy.rewriters import sites
from deploy.rewriters.convert import convert_function, is_user_function, note_submodules, sites_of
from deploy.rewriters.recurrent import wrap_recurrent
from deploy.rewriters.sites import Rewrite
from deploy.rewriters.trace_state import reset_trace_state


@dataclass
class RewriteResult:
    """The rewritten module and the conversion sites found in the user's source.

    ``rewrites`` lists the sites that emitted a graph op (cond / while_loop / scan) while torch
    traced the module: read it after torch.export.export. ``sites`` lists every converted site,
    including those that stayed plain Python (their predicate was a Python value).
    """

    module: torch.nn.Module
    site_ids: list[int] = field(default_factory=list)

    @property
    def rewrites(self) -> list[Rewrite]:
        return sites.emitted_rewrites(self.site_ids)

    @property
    def sites(self) -> list[sites.Site]:
        return [sites.get_site(i) for i in self.site_ids]


def _structural_copy(module: torch.nn.Module, memo: dict[int, torch.nn.Module]) -> torch.nn.Module:
    if id(module) in memo:
        return memo[id(module)]
    clone = copy.copy(module)
    memo[id(module)] = clone
    clone.__dict__["_parameters"] = dict(module._parameters)
    clone.__dict__["_buffers"] = dict(module._buffers)
    clone.__dict__["_modules"] = {
        name: (_structural_copy(child, memo) if child is not None else None)
        for name, child in module._modules.items()
    }
    return clone


def _other_methods(cls: type) -> list:
    """The user-written methods of a module class other than ``forward`` and dunders."""
    found, seen = [], set()
    for klass in cls.__mro__:
        if klass is torch.nn.Module or not issubclass(klass, torch.nn.Module):
            continue
        for attr, value in vars(klass).items():
            fn = value.__func__ if isinstance(value, (staticmethod, classmethod)) else value
            if (
                attr in seen
                or attr == "forward"
                or attr.startswith("__")
                or not isinstance(fn, types.FunctionType)
            ):
                continue
            seen.add(attr)
            if is_user_function(fn):
                found.append(fn)
    return found


def rewrite_module(
    module: torch.nn.Module, example_inputs: tuple = (), dynamic_shapes: object = None
) -> RewriteResult:
    """Convert ``module``'s control flow (see module docstring). ``example_inputs`` and
    ``dynamic_shapes`` are accepted for the exporter's convenience; conversion itself is static and
    dispatch happens per call."""
    del example_inputs, dynamic_shapes  # dispatch is per call; nothing to precompute from them
    # torch.cond / while_loop compile their bodies with dynamo, whose caches outlive an export: a
    # body compiled for an earlier model (other sizes, other dynamic dims) can be reused with its
    # guards and specialise this model's dynamic dims. Each rewrite starts from a clean dynamo.
    torch._dynamo.reset()
    reset_trace_state()  # and from the flags an abandoned trace of an earlier export may have left set
    clone = _structural_copy(module, {})
    wrap_recurrent(clone)  # nn.GRU/LSTM/RNN: scans over time (recurrent.py)
    note_submodules(clone)  # `self.sub(cash, balances)` storing into balances (argument_updates.py)
    site_ids: list[int] = []
    for submodule in clone.modules():
        for method in _other_methods(type(submodule)):
            # `self.tree.descend(h)` in a loop body: dynamo traces the call and cannot convert code,
            # so a submodule's own methods are converted ahead of time (calls.call finds them)
            try:
                convert_function(method)
            except Exception:  # any failure: the model may never call it; a call converts it again
                continue
            site_ids.extend(i for i in sites_of(method) if i not in site_ids)
        forward = getattr(type(submodule), "forward", None)
        # a decorated forward (@torch.no_grad(), functools.wraps) is converted undecorated: the
        # decorators that matter for export (no_grad, eval) are what freezing already applies
        forward = inspect.unwrap(forward) if callable(forward) else forward
        if not is_user_function(forward):
            continue
        converted = convert_function(forward)
        for site_id in sites_of(forward):
            if site_id not in site_ids:
                site_ids.append(site_id)
        if converted is not forward:
            submodule.forward = types.MethodType(converted, submodule)
    for site_id in site_ids:  # conversions are cached per function: forget what an earlier export emitted
        sites.get_site(site_id).emitted.clear()
    return RewriteResult(clone, site_ids)
