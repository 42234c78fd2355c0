"""Dynamic shapes: normalise dynamic_shapes(), dodge the 0/1-specialisation trap, read dim ranges.

torch.export specialises a dim whose example size is 0 or 1 to that constant. A dim the user
marked dynamic must stay dynamic, so tracing uses a copy of the example grown to size 2 in it.
"""

from __future__ import annotations

import contextlib
import inspect
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import torch


@dataclass
class DynamicDim:
    """One dynamic dim of one input, with the range torch.export settled on."""

    input_index: int
    dim: int
    symbol: str
    low: int
    high: int | None  # None: unbounded


def positional_spec(module: torch.nn.Module, inputs: tuple, dynamic_shapes: Any) -> list[Any]:
    """dynamic_shapes as a list aligned with ``inputs`` (a dict by argument name is mapped to positions)."""
    if dynamic_shapes is None:
        return [None] * len(inputs)
    if isinstance(dynamic_shapes, dict):
        params = list(inspect.signature(module.forward).parameters)
        return [dynamic_shapes.get(name) for name in params[: len(inputs)]]
    spec = list(dynamic_shapes)
    return spec + [None] * (len(inputs) - len(spec))


def _marked_dims(entry: Any) -> list[int]:
    if entry is None:
        return []
    items = entry.items() if isinstance(entry, dict) else enumerate(entry)
    static = getattr(torch.export.Dim, "STATIC", None)
    return [int(d) for d, v in items if v is not None and v is not static]


def _dim_max(entry: Any, dim: int) -> int | None:
    value = entry[dim] if isinstance(entry, dict) else list(entry)[dim]
    high = getattr(value, "max", None)
    return high if isinstance(high, int) else None


def grow_small_dims(module: torch.nn.Module, inputs: tuple, dynamic_shapes: Any) -> tuple[tuple, list[str]]:
    """Copy of ``inputs`` with every dynamic dim of example size 0/1 grown to 2 (when its max allows)."""
    grown, notes = list(inputs), []
    for i, entry in enumerate(positional_spec(module, inputs, dynamic_shapes)):
        for dim in _marked_dims(entry):
            tensor = grown[i]
            if not isinstance(tensor, torch.Tensor) or dim >= tensor.dim() or tensor.shape[dim] >= 2:
                continue
            high = _dim_max(entry, dim)
            if high is not None and high < 2:
                continue
            if tensor.shape[dim] == 1:
                grown[i] = torch.cat([tensor, tensor], dim=dim)
            else:
                shape = list(tensor.shape)
                shape[dim] = 2
                grown[i] = torch.zeros(shape, dtype=tensor.dtype)
            notes.append(
                f"input {i} dim {dim} has example size {tensor.shape[dim]}: traced with size 2 so it stays dynamic"
            )
    return tuple(grown), notes


@contextlib.contextmanager
def shared_dims_known_equal(module: torch.nn.Module, inputs: tuple, dynamic_shapes: Any) -> Iterator[None]:
    """While exporting, dims that share one ``Dim`` are told equal before ``forward`` runs.

    Non-strict torch.export gives each input dim its own symbol and checks their equality only at
    the end, so code comparing such sizes inside a branch (``torch.cond`` outputs sized by one input
    against another input) cannot prove them equal. A ``torch._check`` per pair makes them one size.
    """
    groups: dict[str, list[tuple[int, int]]] = {}
    for i, entry in enumerate(positional_spec(module, inputs, dynamic_shapes)):
        for dim in _marked_dims(entry):
            value = entry[dim] if isinstance(entry, dict) else list(entry)[dim]
            name = getattr(value, "__name__", None)
            if isinstance(name, str) and not hasattr(value, "root"):  # a derived dim (2 * n) is not shared
                groups.setdefault(name, []).append((i, dim))
    pairs = [(members[0], other) for members in groups.values() for other in members[1:]]
    if not pairs:
        yield
        return

    def check(_module: torch.nn.Module, args: tuple) -> None:
        for (i, d), (j, e) in pairs:
            if (
                i < len(args)
                and j < len(args)
                and all(isinstance(a, torch.Tensor) for a in (args[i], args[j]))
            ):
                a, b = args[i].shape[d], args[j].shape[e]
                if isinstance(a, torch.SymInt) or isinstance(b, torch.SymInt):
                    torch._check(a == b)

    handle = module.register_forward_pre_hook(check)
    try:
        yield
    finally:
        handle.remove()


def dynamic_dims(ep: torch.export.ExportedProgram) -> list[DynamicDim]:
    """Every symbolic dim of the program's user inputs with its [low, high] range."""
    user_inputs = set(ep.graph_signature.user_inputs)
    placeholders = [n for n in ep.graph.nodes if n.op == "placeholder" and n.name in user_inputs]
    found = []
    for index, node in enumerate(placeholders):
        value = node.meta.get("val")
        if not isinstance(value, torch.Tensor):
            continue
        for dim, size in enumerate(value.shape):
            if isinstance(size, torch.SymInt):
                expr = size.node.expr
                bounds = ep.range_constraints.get(expr)
                low = int(bounds.lower) if bounds is not None else 0
                upper = bounds.upper if bounds is not None else None
                high = int(upper) if upper is not None and upper.is_finite else None
                found.append(DynamicDim(index, dim, str(expr), low, high))
    return found
