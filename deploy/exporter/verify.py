"""Verify an artifact against eager PyTorch on many inputs.

Cases: the example inputs, fresh random inputs like them, for each dynamic dim its min, a mid
size and a capped max, and the model's own verify_inputs(). An output matches when
max|artifact - eager| <= atol + rtol * max|eager| (error relative to output magnitude), or when the
model is so ill-conditioned at that input that eager float32 itself misses float64 by more than
that, or moves by more than that when its inputs move by one rounding, and the artifact is about as
close (conditioning.py; listed in the report).
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field

import numpy as np
import torch

from deploy.exporter.conditioning import conditioned, float64_runner, rounding_sensitive, rounding_spreads
from deploy.exporter.shapes import DynamicDim
from deploy.runtimes.base import Session
from deploy.runtimes.eager import flatten_outputs

RTOL = 1e-4
ATOL = 1e-5
MAX_CAP = 512  # the largest size a dynamic dim is verified at, unless its own max is smaller

# A reference maps a tuple of input tensors to the expected outputs (eager PyTorch, or the source
# ONNX model when the input is a .onnx file).
Reference = Callable[[tuple], list[np.ndarray]]


@dataclass
class Case:
    """One set of inputs to compare on, and where it came from."""

    label: str
    inputs: tuple


@dataclass
class Parity:
    cases: int = 0
    max_abs: float = 0.0
    max_rel: float = 0.0
    ok: bool = True
    worst: dict | None = None  # {case, output, max_abs, max_rel, input_shapes}
    case_labels: list[str] = field(default_factory=list)
    # outputs that miss eager only as far as the model's own float32 error allows (conditioning.py)
    conditioned: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return asdict(self)


def _like(tensor: torch.Tensor, shape: Sequence[int], generator: torch.Generator) -> torch.Tensor:
    """A fresh random tensor of ``shape`` that looks like ``tensor`` (dtype, value range)."""
    if tensor.dtype == torch.bool:
        # as often true as in the example, but never half the time: a model testing `mask.mean() > 0.5`
        # would meet its threshold exactly (a tie any runtime may round to the other branch)
        share = float(tensor.float().mean()) if tensor.numel() else 0.37
        share = min(max(share, 0.1), 0.9)
        share = 0.37 if abs(share - 0.5) < 0.1 else share
        return torch.rand(shape, generator=generator) < share
    if not tensor.is_floating_point():
        low = int(tensor.min()) if tensor.numel() else 0
        high = int(tensor.max()) + 1 if tensor.numel() else 2
        return torch.randint(low, max(high, low + 1), tuple(shape), generator=generator, dtype=tensor.dtype)
    scale = float(tensor.std()) if tensor.numel() > 1 else 1.0
    centre = float(tensor.mean()) if tensor.numel() else 0.0
    values = torch.randn(tuple(shape), generator=generator) * (scale or 1.0) + centre
    if tensor.numel() and float(tensor.min()) >= 0:
        values = values.abs()  # counts, intensities, probabilities: never negative (log1p, sqrt)
    return values.to(tensor.dtype)


def _verification_sizes(dim: DynamicDim, example: int) -> list[tuple[str, int]]:
    low = max(dim.low, 1)
    cap = min(dim.high if dim.high is not None else MAX_CAP, max(4 * example, 32), MAX_CAP)
    cap = max(cap, low)
    sizes = [("min", low), ("mid", (low + cap) // 2), ("max", cap)]
    return [(name, size) for name, size in sizes if size != example]


def build_cases(
    example: tuple, dims: list[DynamicDim], extra: Sequence[tuple] = (), seed: int = 0
) -> list[Case]:
    """Every input set the artifacts are compared on."""
    generator = torch.Generator().manual_seed(seed)
    cases = [Case("example", example)]
    cases.append(Case("random", tuple(_like(t, t.shape, generator) for t in example)))
    by_symbol: dict[str, list[DynamicDim]] = {}
    for dim in dims:
        by_symbol.setdefault(dim.symbol, []).append(dim)
    for symbol, group in by_symbol.items():
        first = group[0]
        for name, size in _verification_sizes(first, example[first.input_index].shape[first.dim]):
            shapes = [list(t.shape) for t in example]
            for dim in group:  # dims sharing a symbol must share a size
                shapes[dim.input_index][dim.dim] = size
            inputs = tuple(_like(t, s, generator) for t, s in zip(example, shapes))
            cases.append(Case(f"{symbol}={size} ({name})", inputs))
    cases.extend(Case(f"verify_inputs[{i}]", tuple(x)) for i, x in enumerate(extra))
    return cases


def eager_reference(module: torch.nn.Module) -> Reference:
    """A reference that runs ``module`` eagerly (no grad) and returns numpy outputs."""

    def run(inputs: tuple) -> list[np.ndarray]:
        with torch.no_grad():
            return [t.detach().cpu().numpy() for t in flatten_outputs(module(*inputs))]

    run.float64 = float64_runner(module)
    return run


def compare(
    expected: list[np.ndarray], actual: list[np.ndarray], rtol: float = RTOL, atol: float = ATOL
) -> list[tuple[float, float, bool, str]]:
    """Per output: (max_abs, max_rel, ok, problem) with the tolerance rule of this module."""
    if len(expected) != len(actual):
        return [(float("inf"), float("inf"), False, f"{len(actual)} outputs, expected {len(expected)}")]
    results = []
    for ref, out in zip(expected, actual):
        out = np.asarray(out)
        if tuple(ref.shape) != tuple(out.shape):
            results.append(
                (float("inf"), float("inf"), False, f"shape {tuple(out.shape)}, expected {tuple(ref.shape)}")
            )
            continue
        if ref.size == 0:
            results.append((0.0, 0.0, True, ""))
            continue
        ref64, out64 = ref.astype(np.float64), out.astype(np.float64)
        with np.errstate(invalid="ignore"):  # inf - inf: equal infinities are a match
            diff = np.where(ref64 == out64, 0.0, np.abs(ref64 - out64))
        max_abs = float(np.nanmax(diff)) if not np.isnan(diff).all() else 0.0
        if np.isnan(diff).any() and not np.array_equal(np.isnan(ref), np.isnan(out)):
            max_abs = float("inf")
        finite = np.abs(ref64[np.isfinite(ref64)])
        magnitude = float(finite.max()) if finite.size else 0.0
        max_rel = max_abs / magnitude if magnitude > 0 else max_abs
        results.append((max_abs, max_rel, max_abs <= atol + rtol * magnitude, ""))
    return results


def verify(
    session: Session, reference: Reference, cases: Sequence[Case], rtol: float = RTOL, atol: float = ATOL
) -> Parity:
    """Run every case through ``session`` and eager ``reference``; the worst mismatch is kept."""
    parity = Parity()
    worst_score = -1.0
    for case in cases:
        expected = reference(case.inputs)
        arrays = [t.detach().cpu().numpy() for t in case.inputs]
        try:
            actual = session.run(arrays)
        except Exception as exc:  # a runtime that rejects a size is a parity failure, not a crash
            results = [
                (float("inf"), float("inf"), False, f"{type(exc).__name__}: {str(exc).splitlines()[0][:200]}")
            ]
        else:
            results = compare(expected, actual, rtol, atol)
            results = _conditioning(reference, case, expected, actual, results, rtol, atol, parity)
        parity.cases += 1
        parity.case_labels.append(case.label)
        for index, (max_abs, max_rel, ok, problem) in enumerate(results):
            parity.max_abs = max(parity.max_abs, max_abs)
            parity.max_rel = max(parity.max_rel, max_rel)
            parity.ok = parity.ok and ok
            score = max_rel if ok else float("inf") if max_rel == float("inf") else 1e9 + max_rel
            if score > worst_score:
                worst_score = score
                parity.worst = {
                    "case": case.label,
                    "output": index,
                    "max_abs": max_abs,
                    "max_rel": max_rel,
                    "input_shapes": [list(t.shape) for t in case.inputs],
                    "problem": problem,
                }
    return parity


def _conditioning(reference, case: Case, expected, actual, results, rtol, atol, parity: Parity) -> list:
    """``results`` with the outputs that miss eager only by the model's own float32 error marked ok:
    eager's distance from float64, else eager's spread under one rounding of its inputs."""
    float64 = getattr(reference, "float64", None)
    if float64 is None or all(ok or problem for _, _, ok, problem in results):
        return results
    exact = float64(case.inputs)
    if exact is not None and len(exact) != len(results):
        exact = None
    spreads = None
    marked = []
    for index, (max_abs, max_rel, ok, problem) in enumerate(results):
        why = ""
        if not (ok or problem):
            out = np.asarray(actual[index])
            why = conditioned(expected[index], out, exact[index], rtol, atol) if exact is not None else ""
            if not why:
                spreads = spreads or rounding_spreads(reference, case.inputs, expected)
                why = rounding_sensitive(expected[index], out, spreads[index], rtol, atol)
        if why:
            parity.conditioned.append(f"{case.label} output {index}: {why}")
        marked.append((max_abs, max_rel, ok or bool(why), problem))
    return marked


def runnable_cases(cases: Sequence[Case], reference: Reference) -> tuple[list[Case], list[str]]:
    """The cases minus generated ones the model itself rejects eagerly (a size its code does not
    allow, such as lengths beyond the sequence); a note names each one dropped. The example and the
    model's verify_inputs always stay: a failure there is the user's to see."""
    kept, notes = [], []
    for case in cases:
        if case.label == "example" or case.label.startswith("verify_inputs["):
            kept.append(case)
            continue
        try:
            with _time_limit(GENERATED_CASE_SECONDS):
                reference(case.inputs)
        except _TooSlow:
            notes.append(
                f"generated input {case.label!r} not verified: eager PyTorch did not finish it in "
                f"{GENERATED_CASE_SECONDS} s (a loop its values never end?)"
            )
            continue
        except Exception as exc:  # any error the user's model raises on this input
            first = str(exc).splitlines()[0][:160] if str(exc) else type(exc).__name__
            notes.append(f"generated input {case.label!r} not verified: eager PyTorch raises on it ({first})")
            continue
        kept.append(case)
    return kept, notes


GENERATED_CASE_SECONDS = 20


class _TooSlow(Exception):
    pass


@contextmanager
def _time_limit(seconds: int) -> Iterator[None]:
    """Raise _TooSlow in the main thread after ``seconds`` (no limit elsewhere: signals are the
    only way to interrupt a Python loop, and only the main thread receives them)."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "SIGALRM"):
        yield
        return

    def expire(signum, frame):
        raise _TooSlow()

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
