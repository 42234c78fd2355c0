"""What a deploy .pt2 package says about itself: input/output specs and the device it was built for.

The specs travel inside the package as AOTInductor user metadata (``aot_inductor.metadata``),
which lands in the archive's ``*_metadata.json``. Reading that JSON straight from the zip lets
a loader know the device before loading the shared library (a cuda package on a machine without
CUDA fails with a clear line instead of a loader crash).
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

from deploy.errors import InputError
from deploy.runtimes.base import TensorSpec

INPUTS_KEY = "deploy.inputs"
OUTPUTS_KEY = "deploy.outputs"
EXAMPLES_KEY = "deploy.example_shapes"  # concrete shapes of the export's example inputs
DEVICE_KEY = "AOTI_DEVICE_KEY"  # written by AOTInductor itself: "cpu" or "cuda"


def dtype_name(dtype: Any) -> str:
    """A torch dtype as a numpy dtype name (torch.float32 -> 'float32')."""
    return str(dtype).removeprefix("torch.")


def _spec_of(name: str, value: Any) -> TensorSpec:
    """The spec of one fake tensor from the exported graph: symbolic dims become None."""
    import torch

    if not isinstance(value, torch.Tensor):
        return TensorSpec(name, (), type(value).__name__)
    shape = tuple(d if isinstance(d, int) else None for d in value.shape)
    return TensorSpec(name, shape, dtype_name(value.dtype))


def program_specs(exported_program: Any) -> tuple[list[TensorSpec], list[TensorSpec]]:
    """User input and output specs of an ExportedProgram, in call order."""
    placeholders = {n.name: n for n in exported_program.graph.nodes if n.op == "placeholder"}
    signature = exported_program.graph_signature
    inputs = [_spec_of(name, placeholders[name].meta.get("val")) for name in signature.user_inputs]
    output_node = next(n for n in exported_program.graph.nodes if n.op == "output")
    values = {str(arg): getattr(arg, "meta", {}).get("val") for arg in output_node.args[0]}
    outputs = [_spec_of(name, values.get(name)) for name in signature.user_outputs]
    return inputs, outputs


def example_shapes(exported_program: Any) -> list[list[int]]:
    """Shapes of the example inputs the program was exported with (valid for every dynamic dim's range)."""
    import torch

    if exported_program.example_inputs is None:
        return []
    args, kwargs = exported_program.example_inputs
    leaves = torch.utils._pytree.tree_leaves((args, kwargs))
    return [list(t.shape) for t in leaves if isinstance(t, torch.Tensor)]


def encode_specs(specs: list[TensorSpec]) -> str:
    return json.dumps([{"name": s.name, "shape": list(s.shape), "dtype": s.dtype} for s in specs])


def decode_specs(text: str) -> list[TensorSpec]:
    return [TensorSpec(d["name"], tuple(d["shape"]), d["dtype"]) for d in json.loads(text)]


def read_metadata(path: Path) -> dict[str, str]:
    """The metadata of the package's model, read from the archive without loading it ({} if absent)."""
    try:
        with zipfile.ZipFile(path) as archive:
            names = [n for n in archive.namelist() if n.endswith("_metadata.json") and "/aotinductor/" in n]
            merged: dict[str, str] = {}
            for name in sorted(names, key=lambda n: "wrapper" not in n):
                for key, value in json.loads(archive.read(name)).items():
                    merged.setdefault(key, value)
            return merged
    except zipfile.BadZipFile as exc:
        raise InputError("not a .pt2 package (not a zip archive)", file=str(path)) from exc
    except (KeyError, ValueError):
        return {}
