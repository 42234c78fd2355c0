"""--target onnx: does every op of the exported program have an ONNX translation, and can
onnxruntime's CPU provider run the ONNX graph?

Translation is checked op by op with torch.onnx's own registry and dispatcher (after the same
decompositions torch.onnx.export runs), so every untranslatable op is reported, each with the
user's source line, instead of the exporter's first failure. onnxruntime is asked for a session
of the whole graph; when that fails, each distinct node (op type + input types) is tried alone
to name every op the CPU provider has no kernel for.
"""

from __future__ import annotations

import functools
import operator
from typing import Any

import onnx
from onnx import helper

from deploy.exporter.checks.report import Occurrence
from deploy.exporter.checks.sources import fx_where, walk_onnx
from deploy.quiet import quiet_torch

CONTROL_FLOW = {"If", "Loop", "Scan"}
NO_KERNEL = ("NOT_IMPLEMENTED", "Could not find an implementation")


@functools.cache
def _registry(opset: int | None):
    """torch.onnx's registry of aten -> ONNX translations (built once per opset: it takes ~1 s)."""
    from torch.onnx._internal.exporter import _registration

    from deploy.runtimes.onnx.symbolic import translations

    with quiet_torch():
        if opset is None:
            registry = _registration.ONNXRegistry.from_torchlib()
        else:
            registry = _registration.ONNXRegistry.from_torchlib(opset_version=opset)
    for target, function in translations().items():  # the ones deploy's ONNX emission adds
        registry.register_op(target, function)
    return registry


def _decomposed(ep: Any, registry) -> tuple[Any, list[str]]:
    from torch.onnx._internal.exporter import _core

    from deploy.runtimes.onnx.decompositions import size_exact
    from deploy.runtimes.onnx.unbacked import unbound_unbacked_sizes_allowed

    try:
        with quiet_torch(), unbound_unbacked_sizes_allowed():
            # the program emission translates: deploy's own decompositions first
            return _core._prepare_exported_program_for_export(size_exact(ep), registry=registry), []
    except Exception as exc:  # then dispatch the program as exported
        first = str(exc).strip().splitlines()[0][:160] if str(exc).strip() else type(exc).__name__
        return ep, [f"torch.onnx decompositions failed ({first}); checked the undecomposed program"]


def op_name(target: Any) -> str:
    """'aten.cummax.default' for an op overload, 'cond' for a higher-order op, the name of a function."""
    import torch

    if isinstance(target, (torch._ops.OpOverload, torch._ops.HigherOrderOperator)):
        return str(target)
    return getattr(target, "__name__", str(target))


def translation_occurrences(ep: Any, opset: int | None = None) -> tuple[list[Occurrence], list[str]]:
    """One Occurrence per call_function node of the (decomposed) program: has it an ONNX translation?"""
    from torch.onnx._internal.exporter import _core, _dispatching

    registry = _registry(opset)
    program, notes = _decomposed(ep, registry)
    found: list[Occurrence] = []

    def walk(graph_module, default_where):
        for node in graph_module.graph.nodes:
            if node.op != "call_function" or node.target is operator.getitem:
                continue
            where = fx_where(node) or default_where
            op = op_name(node.target)
            if _core._is_onnx_op(node.target):
                found.append(Occurrence(op, True, where=where))
                continue
            try:
                function, message = _dispatching.dispatch(node, registry)
            except Exception as exc:  # the dispatcher itself failed on this node
                function, message = None, f"dispatcher error {type(exc).__name__}: {exc}"
            reason = "" if function else f"no ONNX translation in torch.onnx's registry ({message})"
            found.append(Occurrence(op, function is not None, reason, where))
            for arg in node.args:  # torch.cond / while_loop bodies
                if getattr(arg, "op", None) == "get_attr":
                    sub = getattr(graph_module, str(arg.target), None)
                    if sub is not None and hasattr(sub, "graph"):
                        walk(sub, where)

    walk(program.graph_module, None)
    return found, notes


def _type_names(model: onnx.ModelProto) -> dict[str, onnx.TypeProto]:
    try:
        inferred = onnx.shape_inference.infer_shapes(model)
    except Exception:  # shapes are then taken from what the model declares
        inferred = model
    types: dict[str, onnx.TypeProto] = {}

    def collect(graph: onnx.GraphProto) -> None:
        for value in [*graph.input, *graph.value_info, *graph.output]:
            if value.type.HasField("tensor_type") or value.type.HasField("sequence_type"):
                types[value.name] = value.type
        for init in graph.initializer:
            types[init.name] = helper.make_tensor_type_proto(init.data_type, list(init.dims))
        for node in graph.node:
            for attr in node.attribute:
                if attr.type == onnx.AttributeProto.GRAPH:
                    collect(attr.g)
                for sub in attr.graphs:
                    collect(sub)

    collect(inferred.graph)
    return types


def _dtype(type_proto: onnx.TypeProto | None) -> str:
    if type_proto is None or not type_proto.HasField("tensor_type"):
        return "?"
    return onnx.TensorProto.DataType.Name(type_proto.tensor_type.elem_type).lower()


def session_error(model: onnx.ModelProto) -> str | None:
    """None when onnxruntime's CPU provider can create a session for ``model``, else its message."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.log_severity_level = 3
    try:
        ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])
        return None
    except Exception as exc:  # onnxruntime raises its own Fail/NotImplemented/InvalidGraph types
        return str(exc).strip() or type(exc).__name__


def _single_node_model(node: onnx.NodeProto, types: dict, model: onnx.ModelProto) -> onnx.ModelProto:
    inputs = []
    for name in dict.fromkeys(i for i in node.input if i):
        tp = types.get(name)
        inputs.append(
            helper.make_value_info(name, tp)
            if tp is not None
            else helper.make_tensor_value_info(name, 1, None)
        )
    outputs = []
    for name in (o for o in node.output if o):
        tp = types.get(name)
        outputs.append(
            helper.make_value_info(name, tp) if tp is not None else helper.make_empty_tensor_value_info(name)
        )
    bare = onnx.NodeProto()
    bare.CopyFrom(node)
    del bare.metadata_props[:]
    graph = helper.make_graph([bare], "one_node", inputs, outputs)
    single = helper.make_model(graph, opset_imports=list(model.opset_import))
    single.ir_version = model.ir_version
    return single


def runtime_occurrences(model: onnx.ModelProto, where_of) -> list[Occurrence]:
    """One Occurrence per ONNX node: can onnxruntime's CPU provider run it?"""
    whole = session_error(model)
    nodes = list(walk_onnx(model.graph))
    if whole is None:
        return [Occurrence(n.op_type, True, where=where_of(n)) for n in nodes]
    types = _type_names(model)
    verdicts: dict[tuple, str | None] = {}
    found, blamed = [], False
    for node in nodes:
        in_types = tuple(_dtype(types.get(i)) for i in node.input if i)
        key = (node.domain, node.op_type, in_types, tuple(a.SerializeToString() for a in node.attribute))
        if node.op_type in CONTROL_FLOW:
            verdicts[key] = None  # judged by the nodes of its bodies
        elif key not in verdicts:
            message = session_error(_single_node_model(node, types, model))
            verdicts[key] = message if message and any(m in message for m in NO_KERNEL) else None
        reason = ""
        if verdicts[key] is not None:
            blamed = True
            reason = f"onnxruntime's CPU provider has no kernel for {node.op_type} with inputs ({', '.join(in_types)})"
        found.append(Occurrence(node.op_type, verdicts[key] is None, reason, where_of(node)))
    if not blamed:
        first = whole.splitlines()[0][:300]
        found.append(Occurrence("(model)", False, f"onnxruntime cannot load the graph: {first}"))
    return found
