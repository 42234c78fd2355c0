"""Emit model.onnx from an ExportedProgram: torch.onnx.export(dynamo=True), then onnxsim.

If onnxsim fails (or breaks the graph's checker), the unsimplified graph is kept and a note says so.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import onnx

from deploy.atomic import atomic_path
from deploy.errors import UnsupportedOpError
from deploy.oblivious import is_data_dependent, unbacked_sizes_oblivious
from deploy.patching import patched
from deploy.quiet import quiet_torch
from deploy.runtimes.onnx.assert_leftovers import assert_leftovers_removed
from deploy.runtimes.onnx.decompositions import size_exact
from deploy.runtimes.onnx.exact_rules import exact_constant_patterns
from deploy.runtimes.onnx.hoist import hoist_invariant_transposes
from deploy.runtimes.onnx.registry import torchlib_registry_reused
from deploy.runtimes.onnx.source import copy_node_sources
from deploy.runtimes.onnx.subgraph_outputs import outputs_made_inside
from deploy.runtimes.onnx.subgraph_versions import subgraph_nodes_at_model_opset
from deploy.runtimes.onnx.symbolic import translations
from deploy.runtimes.onnx.unbacked import unbound_unbacked_sizes_allowed


def to_onnx_proto(exported_program: Any, custom_translation_table: dict | None = None) -> onnx.ModelProto:
    """Translate an ExportedProgram to an ONNX ModelProto (torch.onnx dynamo exporter)."""
    import torch

    table = {**translations(), **(custom_translation_table or {})}

    def translate(optimize: bool):
        return torch.onnx.export(
            size_exact(exported_program),
            (),
            dynamo=True,
            verbose=False,
            optimize=optimize,
            custom_translation_table=table,
        )

    def attempt():
        try:
            return translate(optimize=True)
        except Exception as exc:
            if not _is_subgraph_opset_mismatch(exc):
                raise
            with _fixing_local_function_versions():
                return translate(optimize=True)

    with (
        quiet_torch(),
        torchlib_registry_reused(),
        exact_constant_patterns(),
        unbound_unbacked_sizes_allowed(),
        assert_leftovers_removed(),
    ):
        try:
            program = attempt()
        except Exception as exc:
            # the decompositions retrace the program and ask again what its export answered
            # size-obliviously (``Tensor.roll`` on a data-dependent length: is it 0?)
            program = _retried_size_obliviously(attempt) if is_data_dependent(exc) else None
            if program is None:
                first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
                raise UnsupportedOpError(f"torch.onnx cannot translate this program: {first}") from exc
    return program.model_proto


def _retried_size_obliviously(attempt):
    try:
        with unbacked_sizes_oblivious():
            return attempt()
    except Exception:  # the first error is the one to report
        return None


_LOCAL_DOMAIN = "pkg.torch.__subgraph__"  # where torch.onnx puts the branch/body functions of a program


def _is_subgraph_opset_mismatch(exc: BaseException) -> bool:
    while exc is not None:
        if "Opset mismatch when inlining" in str(exc) and _LOCAL_DOMAIN in str(exc):
            return True
        exc = exc.__cause__ or exc.__context__
    return False


@contextmanager
def _fixing_local_function_versions() -> Iterator[None]:
    """Within: torch.onnx's version conversion (its first pass inlines the local functions) starts
    by putting the local-function domain at version 1 (see below)."""
    from torch.onnx._internal.exporter import _core

    apis = _core.onnxscript_apis
    original = apis.convert_version

    def convert_version(model, *args, **kwargs):
        _local_functions_at_version_one(model)
        return original(model, *args, **kwargs)

    with patched(apis, "convert_version", convert_version):
        yield


def _local_functions_at_version_one(model) -> None:
    """torch 2.13's exporter gives the local-function domain the ONNX opset version in the model
    when a cond is nested in another cond's branch (a helper with if/elif called twice), while the
    functions import it at version 1, and the inliner refuses the mismatch. Local functions have no
    versions: version 1 everywhere, as the exporter does for programs without the nesting."""
    import onnx_ir as ir

    model.opset_imports[_LOCAL_DOMAIN] = 1
    for function in model.functions.values():
        if _LOCAL_DOMAIN in function.opset_imports:
            function.opset_imports[_LOCAL_DOMAIN] = 1
        for node in ir.traversal.RecursiveGraphIterator(function):
            if node.domain == _LOCAL_DOMAIN:
                node.version = None
    for node in ir.traversal.RecursiveGraphIterator(model.graph):
        if node.domain == _LOCAL_DOMAIN:
            node.version = None


def simplify(model: onnx.ModelProto) -> tuple[onnx.ModelProto, str | None]:
    """onnxsim the model; returns (model, note). On failure the input model comes back with a note."""
    try:
        import onnxsim

        with quiet_torch():
            simplified, ok = onnxsim.simplify(model)
        if not ok:
            return model, "onnxsim could not validate the simplified graph; kept the unsimplified graph"
        onnx.checker.check_model(simplified)
        copy_node_sources(model, simplified)  # onnxsim drops the user's source lines
        return simplified, None
    except Exception as exc:  # onnxsim raises RuntimeError/ValueError/C++ errors
        first = str(exc).strip().splitlines()[0][:200] if str(exc).strip() else type(exc).__name__
        return model, f"onnxsim failed ({first}); kept the unsimplified graph"


def op_histogram(model: onnx.ModelProto) -> dict[str, int]:
    """Op type -> count, including ops inside If/Loop/Scan subgraphs."""
    counts: dict[str, int] = {}

    def walk(graph: onnx.GraphProto) -> None:
        for node in graph.node:
            counts[node.op_type] = counts.get(node.op_type, 0) + 1
            for attr in node.attribute:
                if attr.type == onnx.AttributeProto.GRAPH:
                    walk(attr.g)
                for sub in attr.graphs:
                    walk(sub)

    walk(model.graph)
    return dict(sorted(counts.items()))


@dataclass
class OnnxBuild:
    """The ONNX graph of a program, made once and shared by every backend that needs it."""

    model: onnx.ModelProto
    seconds: float
    notes: list[str] = field(default_factory=list)


def build_onnx(
    exported_program: Any,
    *,
    dump_dir: Path | None = None,
    custom_translation_table: dict | None = None,
    run_onnxsim: bool = True,
) -> OnnxBuild:
    """Translate (torch.onnx dynamo) and simplify (onnxsim); dumps both graphs when asked.

    Translate a program once: torch.onnx cannot always translate the same ExportedProgram twice
    (data-dependent sizes leave pending unbacked symbols behind).
    """
    start = time.perf_counter()
    model = to_onnx_proto(exported_program, custom_translation_table)
    subgraph_nodes_at_model_opset(model)  # torch.onnx converts the opset of the main graph only
    notes: list[str] = []
    if dump_dir is not None:
        _dump(model, dump_dir / "onnx_exported.txt")
    if run_onnxsim:
        model, note = simplify(model)
        if note:
            notes.append(note)
        elif dump_dir is not None:
            _dump(model, dump_dir / "onnx_simplified.txt")
    hoist_invariant_transposes(model)  # an onnxruntime fusion miscomputes them inside loop bodies
    outputs_made_inside(model)  # onnxruntime refuses a body returning an enclosing graph's value
    return OnnxBuild(model, round(time.perf_counter() - start, 3), notes)


def save_onnx(model: onnx.ModelProto, out_path: Path) -> dict:
    """Write ``model`` atomically; returns path, bytes and the op histogram."""
    with atomic_path(out_path) as tmp:
        onnx.save(model, str(tmp))
    return {
        "path": str(out_path),
        "bytes": out_path.stat().st_size,
        "ops": op_histogram(model),
        "seconds": 0.0,
        "notes": [],
    }


def _dump(model: onnx.ModelProto, path: Path) -> None:
    from deploy.atomic import write_text

    # printable_graph lists initializers by name and shape only, so dumps stay readable.
    write_text(path, onnx.helper.printable_graph(model.graph) + "\n")
