"""Rewriters: Python control flow on tensors becomes torch.cond / torch.while_loop / scan.

``rewrite_module(module, example_inputs, dynamic_shapes)`` returns a module with the same
parameters and buffers whose ``forward`` (and every user-defined submodule ``forward`` and helper
it calls) has been converted by the pass chain in ``passes/``. Converted code decides per call,
through the runtime operators, whether to emit a graph op (tensor / symbolic predicate while
exporting) or to run plain Python (config flags, static sizes, eager runs). See docs/REWRITERS.md.
"""

from __future__ import annotations

from deploy.rewriters.module import RewriteResult, rewrite_module
from deploy.rewriters.sites import Rewrite
from deploy.rewriters.size_branches import trusting_size_branches
from deploy.rewriters.trace_state import fresh_trace_state

__all__ = ["Rewrite", "RewriteResult", "fresh_trace_state", "rewrite_module", "trusting_size_branches"]
