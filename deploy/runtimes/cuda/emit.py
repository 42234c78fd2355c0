"""Compile an ExportedProgram with AOTInductor into a self-contained .pt2 package (cuda or host cpu).

The package holds the compiled shared library, the kernels and the weights, so it loads with
``torch._inductor.aoti_load_package`` from Python (or AOTIModelPackageLoader from C++) without the
model's source. Only torch is imported here, lazily: the GPU machine may have nothing else.
"""

from __future__ import annotations

import copy
import json
import time
from collections import Counter
from pathlib import Path
from typing import Any

from deploy.atomic import atomic_path
from deploy.errors import NotDeployableError
from deploy.runtimes.cuda.load_check import known_to_crash, load_problem, remember, usable_compilers
from deploy.runtimes.cuda.package import (
    EXAMPLES_KEY,
    INPUTS_KEY,
    OUTPUTS_KEY,
    encode_specs,
    example_shapes,
    program_specs,
)
from deploy.runtimes.cuda.toolkit import check_target_available, ensure_cuda_home

__all__ = ["emit_pt2", "check_target_available", "move_to_device"]


def move_to_device(exported_program: Any, device: str) -> Any:
    """A copy of the program with weights, constants, example inputs and burnt-in devices on ``device``.

    torch.export.passes.move_to_device_pass rewrites the program in place, so it runs on a deep copy:
    the exporter keeps using its CPU program for the other targets.
    """
    import torch
    from torch.export.passes import move_to_device_pass

    moved = move_to_device_pass(copy.deepcopy(exported_program), device)
    if moved.example_inputs is not None:
        # Older releases left example inputs behind; AOTInductor compiles from them.
        args, kwargs = moved.example_inputs
        to = lambda t: t.to(device)  # noqa: E731
        moved.example_inputs = (
            torch.utils._pytree.tree_map_only(torch.Tensor, to, args),
            torch.utils._pytree.tree_map_only(torch.Tensor, to, kwargs),
        )
    return moved


def op_histogram(exported_program: Any) -> dict[str, int]:
    """How often each op is called in the program (the report's op histogram)."""
    counts = Counter(
        str(getattr(node.target, "__name__", node.target))
        for node in exported_program.graph.nodes
        if node.op == "call_function"
    )
    return dict(sorted(counts.items()))


def _inductor_configs(exported_program: Any) -> dict[str, Any]:
    inputs, outputs = program_specs(exported_program)
    return {
        # Weights become constants: conv/BN folding, constant folding, and on CPU weight prepacking.
        "freezing": True,
        "aot_inductor.metadata": {
            INPUTS_KEY: encode_specs(inputs),
            OUTPUTS_KEY: encode_specs(outputs),
            EXAMPLES_KEY: json.dumps(example_shapes(exported_program)),
        },
    }


def error_summary(exc: BaseException) -> str:
    """The first line of an error, plus the first compiler 'error:' line when a C++ build failed.

    An error without a message of its own (a bare ``assert`` in Inductor reads "AssertionError:") gets
    the operator Inductor was lowering ("target: ...") and where it was raised, so the line says something.
    """
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    head = lines[0] if lines else type(exc).__name__
    compiler = next((line for line in lines[1:] if "error:" in line), None)
    if compiler:
        return f"{head} ({compiler})"
    if lines and not head.endswith(":"):
        return head
    target = next((line for line in lines[1:] if line.startswith("target:")), None)
    where = _raised_at(exc)
    return " ".join(part for part in (head, target, where and f"(raised at {where})") if part)


def _raised_at(exc: BaseException) -> str | None:
    """``path:line in function`` of the innermost frame of the innermost chained error (path from torch/)."""
    while (exc.__cause__ or exc.__context__) is not None:
        exc = exc.__cause__ or exc.__context__
    tb = exc.__traceback__
    if tb is None:
        return None
    while tb.tb_next is not None:
        tb = tb.tb_next
    code = tb.tb_frame.f_code
    path = Path(code.co_filename).as_posix()
    path = path[path.rfind("torch/") :] if "torch/" in path else Path(path).name
    return f"{path}:{tb.tb_lineno} in {code.co_name}"


def _compile(program: Any, tmp: Path, options: dict[str, Any], device: str, out_path: Path) -> None:
    """aoti_compile_and_package into ``tmp``; a compile failure is NotDeployableError (exit 1)."""
    import torch

    try:
        # Writing through an open file keeps the temp name free of the ".pt2" suffix rule.
        with open(tmp, "w+b") as stream, torch.no_grad():
            torch._inductor.aoti_compile_and_package(program, package_path=stream, inductor_configs=options)
    except (KeyboardInterrupt, MemoryError):
        raise
    except Exception as exc:
        raise NotDeployableError(
            f"AOTInductor could not compile the model for {device}: {error_summary(exc)}", file=str(out_path)
        ) from exc


def _configured_compiler(options: dict[str, Any]) -> str:
    """The C++ compiler Inductor builds with: ``cpp.cxx`` from the options, else its config (from $CXX)."""
    import shutil

    import torch

    cxx = options.get("cpp.cxx") or torch._inductor.config.cpp.cxx
    if isinstance(cxx, (tuple, list)):
        cxx = next((c for c in cxx if c), "g++")
    return shutil.which(cxx) or cxx


def _rebuild(
    program: Any, tmp: Path, options: dict[str, Any], device: str, out_path: Path, problem: str
) -> str:
    """The package built with the configured compiler does not load: build it with each other one until
    one loads (returns the note saying so), else NotDeployableError naming the compilers tried."""
    built_with = _configured_compiler(options)
    tried = [built_with]
    remember(built_with, problem)
    for compiler in usable_compilers(built_with):
        tried.append(compiler)
        # Inductor reads $CXX once, at import: the compiler is switched through its config instead; no cache
        # hit may hand back the library the first compiler built.
        _compile(
            program,
            tmp,
            {**options, "cpp.cxx": (None, compiler), "force_disable_caches": True},
            device,
            out_path,
        )
        problem_here = load_problem(tmp)
        if problem_here is None:
            return f"the package built with {built_with} did not load ({problem}); rebuilt with {compiler}"
        remember(compiler, problem_here)
    raise NotDeployableError(
        f"the AOTInductor package for {device} compiles but cannot be loaded ({problem}); "
        f"compilers tried: {', '.join(tried)} (set CXX to another C++ compiler)",
        file=str(out_path),
    )


def emit_pt2(
    exported_program: Any, out_path: str | Path, *, device: str, configs: dict[str, Any] | None = None
) -> dict:
    """Compile ``exported_program`` for ``device`` ('cuda' or 'cpu') into ``out_path``, atomically.

    Raises InputError (exit 2) naming CUDA on a machine without it, before any work; a compile
    failure is NotDeployableError (exit 1). The package is loaded and run once in a child process
    before it is kept (load_check.py); one that crashes its loader is rebuilt with another C++
    compiler. Returns path, bytes, seconds, ops and notes.
    ``configs`` overrides Inductor options (e.g. {"freezing": False}).
    """
    import torch

    check_target_available(device)
    out_path = Path(out_path)
    notes = [f"AOTInductor (torch {torch.__version__}) for {device}"]
    start = time.perf_counter()
    if device == "cuda":
        notes.append(ensure_cuda_home())
        capability = "".join(map(str, torch.cuda.get_device_capability()))
        notes.append(f"GPU {torch.cuda.get_device_name()} (sm_{capability})")
    try:
        program = move_to_device(exported_program, "cuda") if device == "cuda" else exported_program
    except Exception as exc:
        raise NotDeployableError(
            f"could not move the program to {device}: {error_summary(exc)}", file=str(out_path)
        ) from exc
    options = {**_inductor_configs(program), **(configs or {})}
    configured = _configured_compiler(options)
    if known_to_crash(configured):
        usable = usable_compilers(configured)
        if usable:
            options = {**options, "cpp.cxx": (None, usable[0])}
            notes.append(f"built with {usable[0]}: packages built here with {configured} crashed when loaded")
    with atomic_path(out_path) as tmp:
        _compile(program, tmp, options, device, out_path)
        problem = load_problem(tmp)
        if problem:
            notes.append(_rebuild(program, tmp, options, device, out_path, problem))
    seconds = time.perf_counter() - start
    notes.append("freezing on" if options.get("freezing") else "freezing off")
    return {
        "path": str(out_path),
        "bytes": out_path.stat().st_size,
        "seconds": round(seconds, 3),
        "ops": op_histogram(exported_program),
        "notes": notes,
    }
