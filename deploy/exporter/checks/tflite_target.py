"""--target tflite: does every ONNX node have a lowering in deploy's TFLite backend?

For a .onnx or a model.py this asks the backend itself (``deploy.runtimes.tflite.check``), which
tries every node and records why a node cannot be lowered. A .tflite given directly is already
lowered; the check then asks LiteRT's interpreter whether it can resolve every operator.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import onnx

from deploy.exporter.checks.report import Occurrence, split_where
from deploy.exporter.checks.tflite_graph import read_graph

_PREPARE = re.compile(r"^(.*?)\s*Node number (\d+) \((\w+)\) failed to prepare", re.M)
_UNRESOLVED = (
    re.compile(r"unresolved custom op: (\S+?)\.?(?:\s|$)"),
    re.compile(r"Didn't find op for builtin opcode '(\w+)'"),
)


def lowering_occurrences(onnx_model: onnx.ModelProto) -> list[Occurrence]:
    """One Occurrence per ONNX node (subgraphs included): can the TFLite backend lower it?"""
    from deploy.runtimes.tflite.check import check_onnx

    found = []
    for verdict in check_onnx(onnx_model):
        where = None
        if verdict.where:
            file, line = split_where(verdict.where)
            where = (file, line) if line is not None else None
        found.append(
            Occurrence(verdict.op, verdict.supported, "" if verdict.supported else verdict.reason, where)
        )
    return found


def lower_to_bytes(onnx_model: onnx.ModelProto) -> bytes:
    """The .tflite deploy would write for ``onnx_model`` (raises UnsupportedOpError when it cannot)."""
    from deploy.runtimes.tflite.emit import emit_tflite

    with tempfile.TemporaryDirectory(prefix="deploy-check-") as tmp:
        path = Path(tmp) / "model.tflite"
        emit_tflite(onnx_model, path)
        return path.read_bytes()


def interpreter_error(data: bytes) -> str | None:
    """None when LiteRT's interpreter (built-in kernels only) can load and allocate ``data``."""
    from ai_edge_litert.interpreter import Interpreter, OpResolverType

    first = None
    # dynamic dims default to 1, where a 3x3 convolution without padding cannot prepare: the model
    # is also tried with its dynamic dims at a typical size before an op is called unpreparable
    for size in (None, 32, 128):
        try:
            interpreter = Interpreter(
                model_content=data,
                experimental_op_resolver_type=OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES,
            )
            if size is not None:
                if not _resize_dynamic_inputs(interpreter, size):
                    break
            interpreter.allocate_tensors()
            return None
        except Exception as exc:  # ValueError/RuntimeError with the interpreter's log text
            first = first or (str(exc).strip() or type(exc).__name__)
    return first


def _resize_dynamic_inputs(interpreter, size: int) -> bool:
    """Give every dynamic input dim ``size``; False when no input has one."""
    resized = False
    for detail in interpreter.get_input_details():
        signature = detail.get("shape_signature")
        if signature is None or not any(int(d) < 0 for d in signature):
            continue
        shape = [size if int(d) < 0 else int(d) for d in signature]
        interpreter.resize_tensor_input(detail["index"], shape, strict=False)
        resized = True
    return resized


def resolver_occurrences(data: bytes, where_of: dict | None = None) -> list[Occurrence]:
    """One Occurrence per operator of a .tflite: can LiteRT resolve and prepare its kernel?

    The interpreter stops at the first operator it cannot prepare; that one is named.
    """
    graph = read_graph(data)
    where_of = where_of or {}
    error = interpreter_error(data)
    missing = set()
    for pattern in _UNRESOLVED:
        missing.update(pattern.findall(error or ""))
    failed = {}
    for m in _PREPARE.finditer(error or ""):
        # "Node number N (OP)" counts within the subgraph that failed: the first op of that name
        # and index, searched from the main graph into the IF/WHILE bodies
        index, name = int(m.group(2)), m.group(3)
        owner = next((op for op in graph.ops if op.index == index and op.name == name), None)
        if owner is not None and (owner.subgraph, index) not in failed:
            failed[(owner.subgraph, index)] = (
                m.group(1).split(" ", 1)[-1].strip() or "its kernel failed to prepare"
            )
    found = []
    for op in graph.ops:
        name = op.name.removeprefix("CUSTOM:")
        reason = ""
        if name in missing:
            reason = (
                f"LiteRT has no kernel for {op.name} (a custom op must be registered with the interpreter)"
            )
        elif (op.subgraph, op.index) in failed:
            reason = f"LiteRT cannot prepare it: {failed[(op.subgraph, op.index)]}"
        found.append(Occurrence(op.name, not reason, reason, where_of.get((op.subgraph, op.index))))
    if error and not missing and not failed:
        found.append(
            Occurrence("(model)", False, f"LiteRT cannot load the model: {error.splitlines()[0][:300]}")
        )
    return found
