"""A range loop that appends one value per iteration, as ``torch._higher_order_ops.scan`` over
the loop indices: the carried values are the scan's carry, the appended values its stacked outputs
(a StackedList after the loop). Loop bodies are traced with the in-loop-body flag set
(loop_common.in_loop_body)."""

from __future__ import annotations

import torch
from torch._higher_order_ops.scan import scan

from deploy.rewriters import sites
from deploy.rewriters.loop_common import clone_all, in_loop_body, loop_error
from deploy.rewriters.operators import fresh_copies
from deploy.rewriters.selects import _where
from deploy.rewriters.values import StackedList, as_tensor_value


def scan_for(start, stop, step, body_fn, carried, accumulators, names, site):
    # dynamo assumes a scanned dim of a new size (n - 1 for range(1, n)) is >= 2, which violates a
    # dynamic dim whose minimum is 1; so a range starting at k > 0 scans from 0 and the first k
    # iterations leave the carried values untouched and their outputs are sliced off afterwards.
    # Those iterations run the body at index k (not their own index: `x[lag:] * x[:-lag]` under
    # `range(1, n)` fails at lag 0, where `x[:-0]` is empty).
    skip = start if step == 1 and isinstance(start, int) and start > 0 else 0
    indices = torch.arange(0 if skip else start, stop, step, dtype=torch.int64)
    dummy = len(carried) == 0  # scan needs at least one carried value (dynamo cannot trace `not tuple`)
    if dummy:
        carried = (torch.zeros(()),)

    def combine(carry, index):
        values = () if dummy else fresh_copies(tuple(carry))
        new_values, appended = body_fn(index.clamp(min=skip) if skip else index, *values)
        new_values = (carry[0].clone(),) if dummy else clone_all(new_values)
        if skip:
            new_values = tuple(_where(index < skip, old, new) for old, new in zip(carry, new_values))
        ys = []
        for value in appended:
            value = as_tensor_value(value)
            if not isinstance(value, torch.Tensor):
                raise site.error("a converted loop can only append tensors to a list")
            ys.append(value.clone())
        return list(new_values), ys

    try:
        final, stacked = in_loop_body(scan, combine, list(carried), indices)
    except Exception as exc:  # torch's many internal error types -> one line naming the user's loop
        raise loop_error(site, exc, names) from exc
    sites.mark_emitted(site.id, "for->scan")
    if skip and torch.compiler.is_dynamo_compiling():  # dynamo refuses to trace a config patch
        stacked = [ys[skip:] for ys in stacked]
    elif skip:
        with torch.fx.experimental._config.patch(backed_size_oblivious=True):
            stacked = [ys[skip:] for ys in stacked]
    lists = tuple(StackedList(acc, ys) for acc, ys in zip(accumulators, stacked))
    return (() if dummy else tuple(final)), lists
