"""Operator histograms of .tflite files, read with the official flatbuffer schema (no interpreter).

Used by bench_backends.py to explain latency differences between our .tflite and litert-torch's:
extra TRANSPOSE ops, unfused activations, matmuls that are not FULLY_CONNECTED.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from ai_edge_litert import schema_py_generated as schema

_BUILTIN_NAMES = {
    value: name for name, value in vars(schema.BuiltinOperator).items() if not name.startswith("_")
}

# ops whose fused_activation_function we count as "fused" when it is not NONE
_FUSABLE = ("CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED", "ADD", "MUL", "SUB", "DIV")


def _op_name(code: schema.OperatorCodeT) -> str:
    # Builtins past 127 live in builtinCode only; older ones in deprecatedBuiltinCode too.
    value = max(code.builtinCode, code.deprecatedBuiltinCode)
    if value == schema.BuiltinOperator.CUSTOM:
        custom = code.customCode
        return f"CUSTOM:{custom.decode() if isinstance(custom, bytes) else custom}"
    return _BUILTIN_NAMES.get(value, f"BUILTIN_{value}")


def op_histogram(path: str | Path) -> dict:
    """{'ops': {name: count}, 'total': n, 'fused_activations': n, 'subgraphs': n} over every subgraph."""
    model = schema.ModelT.InitFromPackedBuf(bytearray(Path(path).read_bytes()), 0)
    ops: Counter = Counter()
    fused = 0
    for subgraph in model.subgraphs or []:
        for op in subgraph.operators or []:
            name = _op_name(model.operatorCodes[op.opcodeIndex])
            ops[name] += 1
            activation = getattr(op.builtinOptions, "fusedActivationFunction", 0)
            if name in _FUSABLE and activation:
                fused += 1
    return {
        "ops": dict(sorted(ops.items())),
        "total": sum(ops.values()),
        "fused_activations": fused,
        "subgraphs": len(model.subgraphs or []),
    }


def xnnpack_placement(path: str | Path, threads: int = 1) -> dict:
    """How ai-edge-litert's default XNNPACK delegate splits the graph: partitions and ops left outside.

    The Interpreter lists every original node plus one DELEGATE node per partition; a partition's ops
    are those found walking back from its outputs to its inputs. Ops outside every partition run on
    the built-in kernels, and each boundary between the two costs a hand-over.
    """
    from ai_edge_litert.interpreter import Interpreter

    interpreter = Interpreter(model_path=str(path), num_threads=threads)
    interpreter.allocate_tensors()
    nodes = interpreter._get_ops_details()  # noqa: SLF001 - the only view of the delegated plan
    producer = {int(t): n for n in nodes if n["op_name"] != "DELEGATE" for t in n["outputs"]}
    delegated: set[int] = set()
    partitions = [n for n in nodes if n["op_name"] == "DELEGATE"]
    for partition in partitions:
        boundary = {int(t) for t in partition["inputs"]}
        stack = [int(t) for t in partition["outputs"]]
        while stack:
            node = producer.get(stack.pop())
            if node is None or node["index"] in delegated:
                continue
            delegated.add(node["index"])
            stack += [int(t) for t in node["inputs"] if int(t) >= 0 and int(t) not in boundary]
    outside = Counter(
        n["op_name"] for n in nodes if n["op_name"] != "DELEGATE" and n["index"] not in delegated
    )
    return {"partitions": len(partitions), "outside": dict(sorted(outside.items()))}
