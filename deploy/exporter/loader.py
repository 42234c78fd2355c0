"""Load a user's model.py: model(), example_inputs(), optional dynamic_shapes() and verify_inputs().

Every failure becomes an InputError naming the file and, where known, the line.
"""

from __future__ import annotations

import importlib.util
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch

from deploy.errors import InputError
from deploy.exporter.source import innermost_user_frame


@dataclass
class LoadedModel:
    """What a model.py (or an nn.Module handed to the API) provides."""

    module: torch.nn.Module
    example_inputs: tuple
    dynamic_shapes: Any = None
    verify_inputs: list[tuple] = field(default_factory=list)
    path: Path | None = None
    name: str = "model"


def _import_file(path: Path):
    name = f"deploy_user_{path.stem}_{abs(hash(str(path)))}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise InputError("cannot be imported as a Python module", file=str(path))
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses and inspect.getsource need the module registered
    try:
        spec.loader.exec_module(module)
    except SyntaxError as exc:
        raise InputError(f"syntax error: {exc.msg}", file=str(path), line=exc.lineno) from exc
    except Exception as exc:
        raise _raised(exc, path, "importing the model file") from exc
    return module


def _raised(exc: Exception, path: Path, what: str) -> InputError:
    """An InputError for user code that raised, at the line of the raise when it is the user's."""
    where = innermost_user_frame(exc.__traceback__, prefer=str(path))
    return InputError(
        f"{what} raised {type(exc).__name__}: {exc}",
        file=where[0] if where else str(path),
        line=where[1] if where else None,
    )


def _call(path: Path, module, fn_name: str, required: bool):
    fn = getattr(module, fn_name, None)
    if fn is None:
        if required:
            raise InputError(
                f"defines no {fn_name}() function (rename with --{_flag(fn_name)})", file=str(path)
            )
        return None
    if not callable(fn):
        raise InputError(f"{fn_name} is not a function", file=str(path))
    try:
        return fn()
    except Exception as exc:
        raise _raised(exc, path, f"{fn_name}()") from exc


def _flag(fn_name: str) -> str:
    return {"model": "model-fn", "example_inputs": "inputs-fn"}.get(fn_name, fn_name)


def check_inputs(inputs: Any, file: str | None, what: str = "example_inputs()") -> tuple:
    """Inputs must be a tuple (or list) of tensors; a single tensor is wrapped."""
    if isinstance(inputs, torch.Tensor):
        return (inputs,)
    if not isinstance(inputs, (tuple, list)) or not inputs:
        raise InputError(
            f"{what} must return a non-empty tuple of tensors, got {type(inputs).__name__}", file=file
        )
    for i, value in enumerate(inputs):
        if not isinstance(value, torch.Tensor):
            raise InputError(f"{what} item {i} is {type(value).__name__}, expected a torch.Tensor", file=file)
    return tuple(inputs)


def load_model_file(
    path: str | Path, model_fn: str = "model", inputs_fn: str = "example_inputs"
) -> LoadedModel:
    """Import ``path`` and call its model / example-input functions."""
    path = Path(path)
    if not path.exists():
        raise InputError("no such file", file=str(path))
    if path.suffix != ".py":
        raise InputError("expected a model.py (or a .onnx file)", file=str(path))
    user = _import_file(path.resolve())
    module = _call(path, user, model_fn, required=True)
    if not isinstance(module, torch.nn.Module):
        raise InputError(
            f"{model_fn}() must return a torch.nn.Module, got {type(module).__name__}", file=str(path)
        )
    inputs = check_inputs(_call(path, user, inputs_fn, required=True), str(path), f"{inputs_fn}()")
    dynamic = _call(path, user, "dynamic_shapes", required=False)
    extra = _call(path, user, "verify_inputs", required=False) or []
    if not isinstance(extra, (list, tuple)):
        raise InputError("verify_inputs() must return a list of input tuples", file=str(path))
    verify = [check_inputs(item, str(path), "verify_inputs()") for item in extra]
    return LoadedModel(module, inputs, dynamic, verify, path=path, name=path.stem)
