"""Export a model through rewrite_module -> torch.export -> torch.onnx and compare with eager."""

from __future__ import annotations

import logging
import tempfile
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import torch

from deploy.rewriters import fresh_trace_state, rewrite_module
from deploy.rewriters.coverage import LoopLimitExceeded, candidate_inputs, record_branches
from deploy.rewriters.window_spans import static_spans


@dataclass
class Outcome:
    rewrites: list = field(default_factory=list)
    max_abs: float = 0.0
    cases: int = 0
    branches: set = field(default_factory=set)
    all_branches: set = field(default_factory=set)


def flat(value) -> list[np.ndarray]:
    leaves = torch.utils._pytree.tree_leaves(value)
    return [np.asarray(v.detach().numpy() if isinstance(v, torch.Tensor) else v) for v in leaves]


def export_onnx(module, example, dynamic_shapes, path: Path):
    """As deploy's exporter does: windows ``x[t : t + k]`` read as Python reads them, and when that
    fails, as ``k`` entries (rewriters/window_spans.py)."""
    with static_spans(False) as spans:
        try:
            return _export_onnx(module, example, dynamic_shapes, path)
        except Exception:
            if not spans.asked:
                raise
    with static_spans(True):
        return _export_onnx(module, example, dynamic_shapes, path)


def _export_onnx(module, example, dynamic_shapes, path: Path):
    warnings.filterwarnings("ignore")
    logging.getLogger("torch").setLevel(logging.ERROR)
    # a clean slate, as deploy's exporter starts each export with: dynamo keeps what the runtime's
    # constant-result functions gave (window_spans.static_spans_now) with the code it compiled
    torch._dynamo.reset()
    with torch.no_grad(), fresh_trace_state():  # as deploy's exporter does
        program = torch.export.export(module, example, dynamic_shapes=dynamic_shapes, strict=False)
    import onnx

    from deploy.runtimes.onnx.emit import build_onnx

    # deploy's translation (torch.onnx plus its fixes for loops and branches), without onnxsim
    onnx.save(build_onnx(program, run_onnxsim=False).model, str(path))
    return program


def run_onnx(path: Path, inputs: tuple) -> list[np.ndarray]:
    import onnxruntime as ort

    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    feeds = {i.name: np.asarray(v.numpy()) for i, v in zip(session.get_inputs(), inputs)}
    return session.run(None, feeds)


def _assert_eager_raises(model: torch.nn.Module, inputs: tuple) -> None:
    try:
        model(*inputs)
    except (RuntimeError, IndexError):
        return
    raise AssertionError("the rewritten model raised on an input the eager model accepts")


def check(model: torch.nn.Module, example: tuple, verify: list[tuple], dynamic_shapes=None) -> Outcome:
    """Rewrite, export to ONNX, and compare with the original eager model on every input."""
    model.requires_grad_(False)  # as deploy's freeze step leaves it (autograd state changes the export)
    result = rewrite_module(model, example, dynamic_shapes)
    outcome = Outcome()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "model.onnx"
        export_onnx(result.module, example, dynamic_shapes, path)
        outcome.rewrites = result.rewrites
        candidates = candidate_inputs(example)
        for number, inputs in enumerate([example, *verify, *candidates]):
            generated = number > len(verify)
            try:
                with torch.no_grad(), record_branches() as taken:
                    rewritten = flat(result.module(*inputs))
            except LoopLimitExceeded:
                continue  # this candidate makes the model loop forever (eager too)
            except (RuntimeError, IndexError):
                if not generated:
                    raise
                with torch.no_grad():  # a generated input the model itself rejects (stack of k=0 values)
                    _assert_eager_raises(model, inputs)
                continue
            with torch.no_grad():
                expected = flat(model(*inputs))
            outcome.branches |= taken.pairs()
            got = run_onnx(path, inputs)
            assert len(got) == len(expected), (len(got), len(expected))
            for a, b in zip(got, expected):
                np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5)
            for a, b in zip(rewritten, expected):
                np.testing.assert_array_equal(a, b)
            outcome.max_abs = max(
                [outcome.max_abs] + [float(np.abs(a - b).max(initial=0)) for a, b in zip(got, expected)]
            )
            outcome.cases += 1
    for site in result.sites:
        if site.emitted:
            kinds = {"if", "ifexp"}
            outcome.all_branches |= (
                {(site.file, site.line, "then"), (site.file, site.line, "else")}
                if site.construct in kinds
                else set()
            )
    return outcome
