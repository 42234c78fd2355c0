"""emit_tflite: lower an ONNX model to a .tflite file (written atomically) and describe it."""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path

import onnx

from deploy.atomic import write_bytes, write_text
from deploy.errors import InputError, UnsupportedOpError
from deploy.runtimes.tflite.builder import ModelBuilder, op_name
from deploy.runtimes.tflite.fuse import optimize
from deploy.runtimes.tflite.lowering import lower_model


def load_onnx(onnx_model: onnx.ModelProto | str | Path) -> onnx.ModelProto:
    if isinstance(onnx_model, onnx.ModelProto):
        return onnx_model
    path = Path(onnx_model)
    if not path.is_file():
        raise InputError("no such ONNX file", file=str(path))
    try:
        return onnx.load(str(path))
    except Exception as exc:  # protobuf decode errors have many types
        raise InputError(f"not a readable ONNX model: {exc}", file=str(path)) from exc


def describe(builder: ModelBuilder) -> str:
    """A readable text dump of every subgraph: inputs, operators with tensor shapes, outputs."""
    lines = []
    for index, sg in enumerate(builder.subgraphs):

        def show(i: int, sg=sg) -> str:
            if i < 0:
                return "-"
            t = sg.tensors[i]
            shape = "?" if t.shape is None else "x".join(str(d) for d in (t.signature or t.shape))
            return f"{t.name}:{t.dtype}[{shape}]{'=const' if t.data is not None else ''}"

        lines.append(f"subgraph {index} {sg.name}")
        lines.append("  inputs:  " + ", ".join(show(i) for i in sg.inputs))
        for op in sg.operators:
            extra = ""
            act = getattr(op.options, "fusedActivationFunction", 0)
            if act:
                extra = f" +act{act}"
            lines.append(f"  {op_name(op.code)}{extra}({', '.join(show(i) for i in op.inputs)}) -> "
                         + ", ".join(show(i) for i in op.outputs))  # fmt: skip
        lines.append("  outputs: " + ", ".join(show(i) for i in sg.outputs))
    return "\n".join(lines) + "\n"


def emit_tflite(
    onnx_model: onnx.ModelProto | str | Path,
    out_path: Path,
    *,
    channels_last_io: bool = False,
    dump_dir: Path | None = None,
) -> dict:
    """Lower ``onnx_model`` to ``out_path`` (.tflite); returns path, bytes, op histogram, seconds, notes.

    Raises UnsupportedOpError (naming op, node and source line) when a node has no lowering.
    """
    start = time.perf_counter()
    proto = load_onnx(onnx_model)
    builder = lower_model(proto, channels_last_io=channels_last_io)
    fired = Counter()
    for sg in builder.subgraphs:
        fired.update(optimize(sg))
    try:
        data = builder.serialize()
    except Exception as exc:  # a packing failure is a lowering bug; report it, write nothing
        raise UnsupportedOpError(f"the lowered graph could not be serialized: {exc}") from exc
    out_path = Path(out_path)
    write_bytes(out_path, data)
    ops = Counter(op_name(op.code) for sg in builder.subgraphs for op in sg.operators)
    if dump_dir is not None:
        write_text(Path(dump_dir) / "tflite.txt", describe(builder))
    notes = [f"{count} {what}" for what, count in sorted(fired.items()) if count]
    if channels_last_io:
        notes.append("rank-4 inputs and outputs are channels-last (NHWC)")
    if len(builder.subgraphs) > 1:
        notes.append(f"{len(builder.subgraphs)} subgraphs (control flow)")
    return {
        "path": str(out_path),
        "bytes": len(data),
        "ops": dict(sorted(ops.items())),
        "seconds": time.perf_counter() - start,
        "notes": notes,
    }
