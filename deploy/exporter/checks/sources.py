"""What check-ops inspects, built from what the user gave: a model.py (or nn.Module), a .onnx or a .tflite.

A model.py goes load -> freeze -> rewrite (when the rewriters are installed) -> torch.export, exactly
as ``deploy export`` does, so that the check sees the graph the backends will see.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import onnx

from deploy.errors import InputError
from deploy.quiet import quiet_torch

SUFFIXES = {".py": "model", ".onnx": "onnx", ".tflite": "tflite"}
# The inputs each target accepts, by kind.
ACCEPTS = {
    "onnx": ("model", "onnx"),
    "tflite": ("model", "onnx", "tflite"),
    "xnnpack": ("model", "onnx", "tflite"),
    "gpu": ("model", "onnx", "tflite"),
    "nnapi": ("model", "onnx"),
    "coreml": ("model", "onnx"),
}


def input_kind(model_or_path: Any, target: str) -> str:
    """'model', 'onnx' or 'tflite'; InputError for a missing file or a suffix the target cannot take."""
    if not isinstance(model_or_path, (str, Path)):
        return "model"  # an nn.Module (checked when it is loaded)
    path = Path(model_or_path)
    kind = SUFFIXES.get(path.suffix.lower())
    if kind is None:
        raise InputError("expected a model.py, a .onnx or a .tflite file", file=str(path))
    if not path.is_file():
        raise InputError("no such file", file=str(path))
    if kind not in ACCEPTS[target]:
        takes = " or ".join(
            {"model": "a model.py", "onnx": "a .onnx"}.get(k, "a .tflite") for k in ACCEPTS[target]
        )
        raise InputError(f"--target {target} checks {takes}, not a {path.suffix} file", file=str(path))
    return kind


def exported_program(model_or_path: Any, options: dict) -> Any:
    """torch.export of a model.py / nn.Module after freeze and (when available) the rewriters."""
    import deploy.rewriters
    from deploy.exporter.export import export_program
    from deploy.exporter.freeze import freeze
    from deploy.exporter.loader import LoadedModel, check_inputs, load_model_file

    if isinstance(model_or_path, (str, Path)):
        loaded = load_model_file(
            model_or_path,
            model_fn=options.get("model_fn", "model"),
            inputs_fn=options.get("inputs_fn", "example_inputs"),
        )
    else:
        import torch

        if not isinstance(model_or_path, torch.nn.Module):
            raise InputError(f"expected an nn.Module or a path, got {type(model_or_path).__name__}")
        if options.get("example_inputs") is None:
            raise InputError("an nn.Module needs example_inputs")
        inputs = check_inputs(options["example_inputs"], None, "example_inputs")
        loaded = LoadedModel(model_or_path, inputs, options.get("dynamic_shapes"))
    module = freeze(loaded.module.eval()).module
    dynamic = None if options.get("static") else loaded.dynamic_shapes
    rewrite_module = getattr(deploy.rewriters, "rewrite_module", None)
    if options.get("rewrite", True) and rewrite_module is not None:
        module = rewrite_module(module, loaded.example_inputs, dynamic).module
    ep, _ = export_program(module, loaded.example_inputs, dynamic)
    if _is_fx_rebuilt(module, loaded.module):
        _restore_stack_traces(ep, loaded, dynamic)
    return ep


def _is_fx_rebuilt(module: Any, original: Any) -> bool:
    import torch

    return isinstance(module, torch.fx.GraphModule) and not isinstance(original, torch.fx.GraphModule)


def _restore_stack_traces(ep: Any, loaded: Any, dynamic: Any) -> None:
    """Copy the user's stack traces onto a program whose module freeze rebuilt with torch.fx.

    Folding BatchNorm by fx tracing replaces the user's forward with generated code, so the
    frozen program's nodes no longer point at the user's lines; the unfrozen model's program
    has the same node names (the folded BatchNorms aside) and the real traces.
    """
    from deploy.exporter.export import export_program

    try:
        reference, _ = export_program(loaded.module.eval(), loaded.example_inputs, dynamic)
    except Exception:  # the lines are a courtesy; the check itself already has its program
        return
    traces = {n.name: n.meta.get("stack_trace") for n in reference.graph.nodes if n.meta.get("stack_trace")}
    for node in ep.graph.nodes:
        if node.name in traces and fx_where(node) is None:
            node.meta["stack_trace"] = traces[node.name]


def to_onnx(ep: Any, opset: int | None = None) -> onnx.ModelProto:
    """torch.onnx.export(dynamo=True) + onnxsim, keeping each node's stack-trace metadata.

    Raises UnsupportedOpError when torch.onnx cannot translate the program.
    """
    from deploy.errors import UnsupportedOpError
    from deploy.runtimes.onnx.emit import simplify
    from deploy.runtimes.onnx.source import copy_node_sources

    if opset is None:
        from deploy.runtimes.onnx.emit import to_onnx_proto

        exported = to_onnx_proto(ep)
    else:
        import torch

        from deploy.runtimes.onnx.unbacked import unbound_unbacked_sizes_allowed

        with quiet_torch(), unbound_unbacked_sizes_allowed():
            try:
                exported = torch.onnx.export(
                    ep, (), dynamo=True, verbose=False, opset_version=opset
                ).model_proto
            except Exception as exc:
                raise UnsupportedOpError(f"torch.onnx cannot translate this program: {exc}") from exc
    simplified, _ = simplify(exported)
    if simplified is not exported:
        copy_node_sources(exported, simplified)
    return simplified


def load_onnx(path: str | Path) -> onnx.ModelProto:
    try:
        return onnx.load(str(path))
    except Exception as exc:  # protobuf decode errors have many types
        raise InputError(f"not a readable ONNX model: {type(exc).__name__}", file=str(path)) from exc


def load_tflite(path: str | Path) -> bytes:
    data = Path(path).read_bytes()
    if len(data) < 8 or data[4:8] != b"TFL3":
        raise InputError("not a TFLite flatbuffer (no TFL3 identifier)", file=str(path))
    return data


def user_frame(trace: str | None) -> tuple[str, int] | None:
    """The innermost frame of ``trace`` in a real user file (not torch, not generated code)."""
    from deploy.runtimes.onnx.source import _FRAME, is_user_file

    if not trace:
        return None
    frames = [(m.group(1), int(m.group(2))) for m in _FRAME.finditer(trace)]
    for path, line in reversed(frames):
        if is_user_file(path) and not path.startswith("<") and Path(path).is_file():
            return path, line
    return None


def fx_where(node: Any) -> tuple[str, int] | None:
    """The user's (file, line) of an FX node, from the stack trace torch.export records."""
    return user_frame(node.meta.get("stack_trace")) if hasattr(node, "meta") else None


def onnx_where(node: onnx.NodeProto) -> tuple[str, int] | None:
    """The user's (file, line) of an ONNX node (torch.onnx's stack-trace metadata)."""
    from deploy.runtimes.onnx.source import STACK_TRACE_KEY, node_source

    found = node_source(node)
    if found and not found[0].startswith("<") and Path(found[0]).is_file():
        return found
    # node_source's innermost frame is generated or library code: look further out
    return user_frame(next((p.value for p in node.metadata_props if p.key == STACK_TRACE_KEY), None))


def walk_onnx(graph: onnx.GraphProto):
    """Every node of ``graph`` and of the If/Loop/Scan bodies inside it."""
    for node in graph.node:
        yield node
        for attr in node.attribute:
            if attr.type == onnx.AttributeProto.GRAPH:
                yield from walk_onnx(attr.g)
            for sub in attr.graphs:
                yield from walk_onnx(sub)


def onnx_sources(model: onnx.ModelProto) -> dict[str, tuple[str, int]]:
    """ONNX value name -> the user's (file, line) of the node that produces it."""
    sources = {}
    for node in walk_onnx(model.graph):
        where = onnx_where(node)
        if where:
            for output in node.output:
                if output:
                    sources[output] = where
    return sources
