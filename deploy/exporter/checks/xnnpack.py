"""--target xnnpack: which TFLite operators LiteRT's default XNNPACK delegate takes.

Measured on the real interpreter, not a hand-kept list: with the default delegate applied,
``Interpreter._get_ops_details()`` lists the model's operators followed by one DELEGATE node
per XNNPACK partition. A partition replaces exactly the operators between its input and output
tensors, so walking back from each DELEGATE node's outputs to its inputs names the operators it
took; every other operator falls back to TFLite's built-in kernels.
"""

from __future__ import annotations

from deploy.exporter.checks.report import Occurrence
from deploy.exporter.checks.tflite_graph import TfliteGraph, read_graph

NOT_TAKEN = "the XNNPACK delegate does not take it (inputs {types}); it runs on TFLite's built-in CPU kernel"
IN_BODY = (
    "inside control-flow subgraph {sub}: the interpreter reports delegation for the main subgraph only, "
    "so XNNPACK is not known to take it"
)


def _delegated(details: list[dict], count: int) -> set[int]:
    """Indices of the original operators that some DELEGATE node replaced."""
    producer = {}
    for node in details[:count]:
        for t in node["outputs"]:
            producer[int(t)] = node["index"]
    taken: set[int] = set()
    for node in details[count:]:
        if node["op_name"] != "DELEGATE":
            continue
        stop = {int(t) for t in node["inputs"]}
        stack = [int(t) for t in node["outputs"]]
        while stack:
            tensor = stack.pop()
            index = producer.get(tensor)
            if tensor in stop or index is None or index in taken:
                continue
            taken.add(index)
            stack.extend(int(t) for t in details[index]["inputs"] if int(t) >= 0)
    return taken


def interpreter_details(data: bytes) -> list[dict]:
    """Op details of subgraph 0 after LiteRT applied its default delegate (XNNPACK)."""
    from ai_edge_litert.interpreter import Interpreter

    interpreter = Interpreter(model_content=data)
    interpreter.allocate_tensors()
    return interpreter._get_ops_details()


def _types(graph: TfliteGraph, subgraph: int, inputs: list[int]) -> str:
    names = [graph.tensor_types[subgraph][int(t)].lower() for t in inputs if int(t) >= 0]
    return ", ".join(names)


def delegation_occurrences(data: bytes, where_of: dict) -> list[Occurrence]:
    """One Occurrence per operator: does the XNNPACK delegate take it?"""
    from deploy.exporter.checks.tflite_target import resolver_occurrences

    graph = read_graph(data)
    main = [op for op in graph.ops if op.subgraph == 0]
    try:
        details = interpreter_details(data)
    except Exception:  # an op without a kernel: the resolver check names it
        return resolver_occurrences(data, where_of)
    if len(details) < len(main) or any(
        d["op_name"] != op.name for d, op in zip(details, main) if not op.name.startswith("CUSTOM")
    ):
        raise RuntimeError("the interpreter's node list does not match the model's operators")
    taken = _delegated(details, len(main))
    found = []
    for op in graph.ops:
        where = where_of.get((op.subgraph, op.index))
        if op.subgraph:
            found.append(Occurrence(op.name, False, IN_BODY.format(sub=op.subgraph), where))
        elif op.index in taken:
            found.append(Occurrence(op.name, True, where=where))
        else:
            reason = NOT_TAKEN.format(types=_types(graph, 0, op.inputs))
            found.append(Occurrence(op.name, False, reason, where))
    return found
