"""Lower an ONNX graph (read with onnx-ir) into TFLite subgraphs, node by node.

Nodes whose inputs are all constants are folded with the ONNX reference implementation;
every other node goes through its registered lowering. A node without a lowering, or one
its lowering rejects, raises ``UnsupportedOpError`` naming the op, the node and the user's
source line; nothing half-lowered is ever written.
"""

from __future__ import annotations

import numpy as np
import onnx
import onnx.inliner
import onnx.numpy_helper
import onnx_ir as ir

from deploy.errors import UnsupportedOpError
from deploy.runtimes.onnx.source import node_source
from deploy.runtimes.tflite import registry
from deploy.runtimes.tflite.builder import ModelBuilder
from deploy.runtimes.tflite.context import LoweringContext, ir_dtype, ir_shape
from deploy.runtimes.tflite.expand import EXPANDED_FROM, expand_functions
from deploy.runtimes.tflite.values import NotConstant, Unsupported, Value, channels_last

# Ops whose value is not a function of their inputs, or that lower better than they fold.
NOT_FOLDED = {"RandomNormal", "RandomUniform", "RandomNormalLike", "RandomUniformLike", "Multinomial", "Bernoulli",
              "If", "Loop", "Scan", "Constant"}  # fmt: skip
_ONNX_TYPES = {np.dtype(k): v for k, v in (("float32", 1), ("uint8", 2), ("int8", 3), ("int16", 5), ("int32", 6),
                                            ("int64", 7), ("bool", 9), ("float16", 10), ("float64", 11))}  # fmt: skip
FOLD_LIMIT = 1 << 24  # elements; bigger results stay computed at run time


def unsupported(node: ir.Node, reason: str) -> UnsupportedOpError:
    where = node_source(ir.serde.serialize_node(node)) if node.metadata_props else None
    name = node.name or "(unnamed)"
    origin = node.metadata_props.get(EXPANDED_FROM)
    part_of = f", part of the expansion of {origin}" if origin else ""
    message = f"ONNX op {node.op_type} (node {name}{part_of}) cannot be lowered to TFLite: {reason}"
    return UnsupportedOpError(message, file=where[0] if where else None, line=where[1] if where else None)


def fold(ctx: LoweringContext, node: ir.Node) -> list[Value] | None:
    """Evaluate a node whose inputs are all constants; None when it should not be folded."""
    if node.op_type in NOT_FOLDED or node.domain not in ("", "ai.onnx") or not node.inputs:
        return None
    inputs = [ctx.get(v) for v in node.inputs]
    if any(v is not None and v.const is None for v in inputs):
        return None
    if any(isinstance(a.value, ir.Graph) for a in node.attributes.values()):
        return None
    from onnx.reference import ReferenceEvaluator

    proto = ir.serde.serialize_node(node)
    feeds = {name: v.const for name, v in zip(proto.input, inputs) if name and v is not None}
    opset = ctx.options.get("opset", 18)
    try:
        evaluator = ReferenceEvaluator(_single_node_model(proto, node, inputs, opset))
        results = evaluator.run(None, feeds)
    except Exception:  # the reference may not implement an op; then it is lowered instead
        return None
    if any(np.asarray(r).size > FOLD_LIMIT for r in results):
        return None
    return [ctx.const(np.asarray(r), name=o.name or "folded") for r, o in zip(results, node.outputs)]


def _single_node_model(proto, node: ir.Node, inputs, opset: int) -> onnx.ModelProto:
    make = onnx.helper.make_tensor_value_info
    graph_inputs = [make(n, onnx.helper.np_dtype_to_tensor_dtype(v.const.dtype), v.const.shape)
                    for n, v in zip(proto.input, inputs) if n and v is not None]  # fmt: skip
    outputs = [onnx.helper.make_empty_tensor_value_info(o) for o in proto.output if o]
    graph = onnx.helper.make_graph([proto], "fold", graph_inputs, outputs)
    return onnx.helper.make_model(graph, opset_imports=[onnx.helper.make_opsetid("", opset)])


def infer_missing_shapes(ctx: LoweringContext, node: ir.Node) -> None:
    """Run ONNX shape inference on this one node when its outputs' shapes are unknown.

    Whole-model inference gives up inside some subgraph bodies and after data-dependent
    ops; the lowered inputs' shapes (and small constants) are known here.
    """
    outputs = [o for o in node.outputs if o.name]
    if all(o.shape is not None and o.dtype is not None for o in outputs) or not outputs:
        return
    if any(isinstance(a.value, ir.Graph) for a in node.attributes.values()):
        return
    make = onnx.helper
    inputs, initializers = [], []
    for i, value in enumerate(node.inputs):
        lowered = ctx.get(value) if value is not None else None
        if lowered is None or lowered.dtype not in _ONNX_TYPES:
            continue
        if lowered.const is not None and lowered.const.size <= 4096:
            initializers.append(onnx.numpy_helper.from_array(lowered.const, value.name))
        dims = (
            None
            if lowered.shape is None
            else [f"d{i}_{k}" if d is None else d for k, d in enumerate(lowered.shape)]
        )
        inputs.append(make.make_tensor_value_info(value.name, _ONNX_TYPES[lowered.dtype], dims))
    graph = make.make_graph([ir.serde.serialize_node(node)], "one", inputs,
                            [make.make_empty_tensor_value_info(o.name) for o in outputs], initializers)  # fmt: skip
    model = make.make_model(graph, opset_imports=[make.make_opsetid("", ctx.options.get("opset", 18))])
    try:
        inferred = onnx.shape_inference.infer_shapes(model, data_prop=True, strict_mode=False)
    except Exception:  # nothing more to learn
        return
    found = {
        v.name: v.type.tensor_type for v in list(inferred.graph.value_info) + list(inferred.graph.output)
    }
    for output in outputs:
        info = found.get(output.name)
        if info is None:
            continue
        if output.dtype is None and info.elem_type:
            output.dtype = ir.DataType(info.elem_type)
        if output.shape is None and info.HasField("shape"):
            output.shape = ir.Shape(
                [d.dim_value if d.HasField("dim_value") else None for d in info.shape.dim]
            )


def lower_node(ctx: LoweringContext, node: ir.Node) -> None:
    """Lower one node and bind its outputs in ``ctx``."""
    first_tensor = len(ctx.sg.tensors)
    try:
        infer_missing_shapes(ctx, node)
        results = fold(ctx, node)
        if results is None:
            lowering = registry.find(node.op_type, node.domain)
            if lowering is None:
                raise Unsupported("no lowering for this op")
            results = lowering(ctx, node)
    except (Unsupported, NotConstant) as exc:
        raise unsupported(node, str(exc)) from exc
    except UnsupportedOpError:
        raise
    except Exception as exc:  # a lowering bug must still name the node, never crash the writer
        raise unsupported(node, f"lowering failed ({type(exc).__name__}: {exc})") from exc
    if not isinstance(results, (list, tuple)):
        results = [results]
    for output, value in zip(node.outputs, results):
        if value is None or not output.name:
            continue
        if value.tensor is not None and value.tensor >= first_tensor:
            ctx.sg.tensors[value.tensor].name = output.name
        if value.shape is None and output.shape is not None:
            value.shape = ir_shape(output)
        ctx.values[output] = value


def lower_graph_body(ctx: LoweringContext, graph: ir.Graph) -> None:
    for initializer in graph.initializers.values():
        if initializer.const_value is not None:
            ctx.values[initializer] = ctx.const(initializer.const_value.numpy(), name=initializer.name)
    report = ctx.options.get("report")
    for node in graph:
        if report is None:
            lower_node(ctx, node)
            continue
        try:
            lower_node(ctx, node)
            report.append((node, None))
        except UnsupportedOpError as exc:
            report.append((node, exc))
            bind_placeholders(ctx, node)


def bind_placeholders(ctx: LoweringContext, node: ir.Node) -> None:
    """Stand-in tensors for the outputs of a node that failed, so that checking can go on."""
    for output in node.outputs:
        if output.name and output not in ctx.values:
            try:
                dtype = ir_dtype(output)
            except Unsupported:
                dtype = np.dtype("float32")
            tensor = ctx.new_tensor(ir_shape(output), dtype, name=output.name)
            ctx.values[output] = Value(output.name, ir_shape(output), dtype, tensor=tensor)


def add_input(ctx: LoweringContext, value: ir.Value, channels_last_io: bool = False) -> Value:
    shape, dtype = ir_shape(value), ir_dtype(value)
    perm = channels_last(len(shape)) if channels_last_io and shape is not None and len(shape) == 4 else None
    tensor = ctx.new_tensor(shape, dtype, perm, name=value.name)
    ctx.sg.tensors[tensor].name = value.name
    ctx.sg.inputs.append(tensor)
    lowered = Value(value.name, shape, dtype, tensor=tensor, perm=perm)
    ctx.values[value] = lowered
    return lowered


def output_tensor(ctx: LoweringContext, value: Value, perm=None) -> int:
    """A tensor for a subgraph output: a fresh one if it is an input, a constant or already used."""
    tensor = ctx.tensor(value, perm)
    reused = tensor in ctx.sg.inputs or tensor in ctx.sg.outputs or ctx.sg.tensors[tensor].data is not None
    if reused:
        if perm is not None:
            raise Unsupported("a channels-last output that is also an input")
        tensor = ctx.identity(value)
    return tensor


def lower_model(
    proto: onnx.ModelProto, channels_last_io: bool = False, report: list | None = None
) -> ModelBuilder:
    """The whole model as a ModelBuilder (main graph = subgraph 0).

    With ``report`` (a list), every node is tried and (node, None | UnsupportedOpError) is
    appended for each instead of stopping at the first failure.
    """
    if proto.functions:  # torch.onnx writes cond/while branches as local functions
        proto = onnx.inliner.inline_local_functions(proto)
    try:
        proto = onnx.shape_inference.infer_shapes(proto, data_prop=True)
    except Exception:  # shapes are then taken from value_info only
        copy = onnx.ModelProto()
        copy.CopyFrom(proto)
        proto = copy
    try:
        proto = expand_functions(proto)
    except Exception:  # a body that cannot be expanded leaves its op to be reported as unsupported
        pass
    model = ir.serde.deserialize_model(proto)
    builder = ModelBuilder()
    index, subgraph = builder.new_subgraph("main")
    options = {"opset": model.opset_imports.get("", model.opset_imports.get("ai.onnx", 18)), "report": report}
    ctx = LoweringContext(builder, subgraph, index, options)
    for value in model.graph.inputs:
        if value.name in model.graph.initializers:
            continue
        add_input(ctx, value, channels_last_io)
    lower_graph_body(ctx, model.graph)
    if report is not None:
        return builder
    for value in model.graph.outputs:
        lowered = ctx.values.get(value)
        if lowered is None:
            raise UnsupportedOpError(f"graph output {value.name!r} is not computed by the graph")
        perm = channels_last(4) if channels_last_io and lowered.rank == 4 else None
        try:
            tensor = output_tensor(ctx, lowered, perm)
        except Unsupported as exc:
            raise UnsupportedOpError(f"output {value.name!r}: {exc}") from exc
        ctx.sg.tensors[tensor].name = value.name
        ctx.sg.outputs.append(tensor)
    return builder
