"""Export a torch module the way deploy's exporter does: torch.export -> torch.onnx (dynamo) -> onnxsim."""

from __future__ import annotations

import importlib.util
import warnings
from pathlib import Path

import onnx

ROOT = Path(__file__).resolve().parents[3]


def load_sample(name: str):
    spec = importlib.util.spec_from_file_location(f"sample_{name}", ROOT / "samples" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def to_onnx(model, inputs: tuple, dynamic_shapes=None, simplify: bool = True) -> onnx.ModelProto:
    import torch

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        program = torch.export.export(model.eval(), inputs, dynamic_shapes=dynamic_shapes, strict=False)
        proto = torch.onnx.export(program, (), dynamo=True, verbose=False).model_proto
    if simplify:
        import onnxsim

        simplified, ok = onnxsim.simplify(proto)
        assert ok
        from deploy.runtimes.onnx.source import copy_node_sources

        copy_node_sources(proto, simplified)
        proto = simplified
    return proto
