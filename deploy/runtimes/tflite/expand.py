"""Expand ONNX ops that are defined as ONNX functions (Attention, RMSNormalization, losses, ...).

An op without a registered lowering whose schema carries a function body (plain or
context-dependent) is replaced by that body before lowering, so it is lowered through
the ops it is made of. Ops with their own lowering are never expanded.
"""

from __future__ import annotations

import onnx
import onnx.defs

from deploy.runtimes.tflite import registry

MAX_ROUNDS = 4  # function bodies may use function ops themselves
EXPANDED_FROM = "deploy.expanded_from"  # metadata key on the nodes of an expanded function op


def _schema(node: onnx.NodeProto, opset: int):
    try:
        return onnx.defs.get_schema(node.op_type, opset, domain=node.domain)
    except Exception:  # unknown op: nothing to expand
        return None


def _function_body(
    node: onnx.NodeProto, opset: int, types: dict[str, onnx.TypeProto]
) -> onnx.FunctionProto | None:
    schema = _schema(node, opset)
    if schema is None:
        return None
    plain = [v for v in schema.function_opset_versions if v <= opset]
    dependent = [v for v in schema.context_dependent_function_opset_versions if v <= opset]
    body = onnx.FunctionProto()
    if plain and (not dependent or max(plain) >= max(dependent)):
        body.ParseFromString(schema.get_function_with_opset_version(max(plain)))
        return body
    if dependent:
        if any(name and name not in types for name in node.input):
            return None
        input_types = [types[name].SerializeToString() if name else onnx.TypeProto().SerializeToString()
                       for name in node.input]  # fmt: skip
        with_defaults = onnx.NodeProto()
        with_defaults.CopyFrom(node)
        given = {a.name for a in node.attribute}
        for name, attribute in schema.attributes.items():
            if name not in given and attribute.default_value and attribute.default_value.name:
                with_defaults.attribute.extend([attribute.default_value])
        try:
            text = schema.get_context_dependent_function_with_opset_version(
                max(dependent), with_defaults.SerializeToString(), input_types
            )
        except Exception:  # the builder rejects these inputs: keep the op, report it later
            return None
        body.ParseFromString(text)
        return body if body.node else None
    return None


def _expand_node(
    node: onnx.NodeProto, body: onnx.FunctionProto, prefix: str, opset: int
) -> list[onnx.NodeProto]:
    from onnx.backend.test.case.node import (
        function_expand_helper,  # onnx's own expansion (renames, attr refs)
    )

    with_defaults = onnx.NodeProto()
    with_defaults.CopyFrom(node)
    schema = _schema(node, opset)
    given = {a.name for a in node.attribute}
    for name, attribute in schema.attributes.items():
        if name not in given and attribute.default_value and attribute.default_value.name:
            with_defaults.attribute.extend([attribute.default_value])
    expanded = function_expand_helper(with_defaults, body, prefix)
    for inner in expanded:  # keep the user's source line and say which op this came from
        for prop in node.metadata_props:
            inner.metadata_props.add(key=prop.key, value=prop.value)
        inner.metadata_props.add(key=EXPANDED_FROM, value=f"{node.op_type} {node.name or '(unnamed)'}")
    return expanded


def _types(model: onnx.ModelProto) -> dict[str, onnx.TypeProto]:
    graph = model.graph
    types = {v.name: v.type for v in list(graph.input) + list(graph.value_info) + list(graph.output)}
    for init in graph.initializer:
        types.setdefault(init.name, onnx.helper.make_tensor_type_proto(init.data_type, list(init.dims)))
    return types


def expand_functions(model: onnx.ModelProto) -> onnx.ModelProto:
    """``model`` with every function op that has no lowering replaced by its body."""
    opset = next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), 18)
    for round_ in range(MAX_ROUNDS):
        types = _types(model)
        nodes, changed = [], False
        for index, node in enumerate(model.graph.node):
            if node.domain in ("", "ai.onnx") and registry.find(node.op_type) is None:
                body = _function_body(node, opset, types)
                if body is not None:
                    nodes.extend(_expand_node(node, body, f"{node.op_type}_{round_}_{index}_", opset))
                    changed = True
                    continue
            nodes.append(node)
        if not changed:
            break
        del model.graph.node[:]
        model.graph.node.extend(nodes)
        try:
            model = onnx.shape_inference.infer_shapes(model, data_prop=True)
        except Exception:  # keep going with the types we have
            pass
    return model
