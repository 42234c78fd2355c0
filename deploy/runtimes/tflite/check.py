"""check_onnx: which nodes of an ONNX model the TFLite lowering supports, and why not.

Every node is tried (a failed node gets stand-in outputs so the rest is still checked),
so one call lists all the problems, each with a reason and the user's source line.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import onnx
import onnx_ir as ir

from deploy.runtimes.onnx.source import node_source
from deploy.runtimes.tflite.emit import load_onnx
from deploy.runtimes.tflite.lowering import lower_model


@dataclass(frozen=True)
class NodeSupport:
    """One node's verdict: ``reason`` says why it is not supported (or how it is lowered)."""

    op: str
    node: str
    supported: bool
    reason: str
    where: str | None  # "file.py:LINE" when torch.onnx recorded it


def _where(node: ir.Node) -> str | None:
    if not node.metadata_props:
        return None
    found = node_source(ir.serde.serialize_node(node))
    return f"{found[0]}:{found[1]}" if found else None


def check_onnx(onnx_model: onnx.ModelProto | str | Path) -> list[NodeSupport]:
    """One NodeSupport per node (subgraph nodes included), in lowering order."""
    report: list = []
    lower_model(load_onnx(onnx_model), report=report)
    results = []
    for node, error in report:
        if error is None:
            verdict = NodeSupport(
                node.op_type, node.name or "", True, "lowered to TFLite builtins", _where(node)
            )
        else:
            reason = error.message.split(": ", 1)[-1] if ": " in error.message else error.message
            verdict = NodeSupport(node.op_type, node.name or "", False, reason, _where(node))
        results.append(verdict)
    return results
