"""Tell an artifact that is wrong from a model that is ill-conditioned at an input.

Some inputs make a model amplify rounding: a least-squares fit to one point, a matrix solve with a
condition number of 1e4. There eager float32 PyTorch is itself far from the exact answer, and any
other float32 runtime (another summation order, another solver) lands elsewhere near it, further
from eager than the parity tolerance. When an output misses parity, it is compared with the same
model run in float64 on the same inputs: the mismatch is put down to the model's conditioning only
when eager float32 itself misses the float64 answer by more than the tolerance (but by at most
``MAX_OWN_ERROR`` tolerances: beyond that a branch or a tie went another way, which is a real
difference) and the artifact is no more than ``FACTOR`` times further from it than eager is.

Where float64 cannot tell (a servo loop that never settles leaves only rounding noise, which float64
rounds elsewhere by far more), eager float32 is run again on its inputs moved by one rounding (each
float entry times ``1 +- eps``, twice with random signs, then each input as a whole up or down;
only when a plain rerun reproduces its outputs, so that a stateful model's drift is not taken for a
spread): when that alone moves an output by more than the tolerance,
eager's own answer there is only known to that spread, and an artifact within ``FACTOR`` spreads of
it is accepted. A model that is stable at the input moves by about ``eps``, so a real difference is
still one. Each accepted output is listed in the report (``parity.conditioned``), with its distances.
"""

from __future__ import annotations

import copy

import numpy as np
import torch

from deploy.runtimes.eager import flatten_outputs

FACTOR = 4.0
MAX_OWN_ERROR = 20.0
ROUNDING_TRIALS = 2


def float64_runner(module: torch.nn.Module):
    """A function running a float64 copy of ``module`` on float64 copies of float32 inputs (numpy
    outputs); made on first use, and None afterwards when the model cannot run in float64."""
    state: dict = {}

    def run(inputs: tuple) -> list[np.ndarray] | None:
        if "module" not in state:
            try:
                state["module"] = copy.deepcopy(module).double()
            except Exception:  # a module that cannot be copied: no float64 reference
                state["module"] = None
        if state["module"] is None:
            return None
        wide = tuple(t.double() if t.dtype == torch.float32 else t for t in inputs)
        previous = torch.get_default_dtype()
        torch.set_default_dtype(torch.float64)  # tensors forward makes (torch.linspace(-1, 1, n)) too
        try:
            with torch.no_grad():
                return [t.detach().cpu().numpy() for t in flatten_outputs(state["module"](*wide))]
        except Exception:  # dtypes the model fixes itself (torch.zeros(..., dtype=float32)) and the like
            return None
        finally:
            torch.set_default_dtype(previous)

    return run


def conditioned(expected: np.ndarray, actual: np.ndarray, exact: np.ndarray, rtol: float, atol: float) -> str:
    """A one-line explanation when ``actual`` misses ``expected`` only as far as the model's own
    float32 error allows; '' when the mismatch is real."""
    if expected.shape != exact.shape or not np.issubdtype(expected.dtype, np.floating):
        return ""
    exact = exact.astype(np.float64)
    if not (np.isfinite(exact).all() and np.isfinite(expected).all() and np.isfinite(actual).all()):
        return ""
    tolerance = atol + rtol * float(np.abs(exact).max(initial=0.0))
    own = float(np.abs(expected.astype(np.float64) - exact).max(initial=0.0))
    ours = float(np.abs(actual.astype(np.float64) - exact).max(initial=0.0))
    if not tolerance < own <= MAX_OWN_ERROR * tolerance or ours > FACTOR * own:
        return ""
    return (
        f"eager float32 is itself {own:.2e} from float64 (tolerance {tolerance:.2e}); "
        f"the artifact is {ours:.2e} from it"
    )


def rounding_spreads(reference, inputs: tuple, expected: list[np.ndarray]) -> list[float]:
    """Per output: how far eager float32 (``reference``) moves when every float32 input moves by one
    rounding; 0.0 where that cannot be measured (the output changed shape, or stopped being finite)."""
    generator = torch.Generator().manual_seed(0)
    spreads = [0.0] * len(expected)
    if not _reproduces(reference, inputs, expected):  # a stateful model: its spread means nothing
        return spreads
    for nudged in _nudged_inputs(inputs, generator):
        try:
            outputs = reference(nudged)
        except Exception:  # the model refuses its own nudged inputs: nothing to measure
            return [0.0] * len(expected)
        if len(outputs) != len(expected):
            return [0.0] * len(expected)
        for index, (moved, ref) in enumerate(zip(outputs, expected)):
            moved = np.asarray(moved)
            comparable = moved.shape == ref.shape and np.issubdtype(ref.dtype, np.floating)
            if comparable and np.isfinite(moved).all() and np.isfinite(ref).all():
                distance = np.abs(moved.astype(np.float64) - ref.astype(np.float64)).max(initial=0.0)
                spreads[index] = max(spreads[index], float(distance))
    return spreads


def _reproduces(reference, inputs: tuple, expected: list[np.ndarray]) -> bool:
    """Whether eager gives ``expected`` again on the same inputs."""
    try:
        again = reference(inputs)
    except Exception:  # the model fails on a second call: nothing to measure either
        return False
    return len(again) == len(expected) and all(
        np.array_equal(np.asarray(a), e, equal_nan=np.issubdtype(e.dtype, np.floating))
        for a, e in zip(again, expected)
    )


def _nudged_inputs(inputs: tuple, generator: torch.Generator):
    """The inputs moved by one rounding, one tuple per trial: each entry up or down at random
    (``ROUNDING_TRIALS`` times), then each float input moved as a whole, alternately up and down by
    input, and the opposite. Random signs average out in a mean, so a model that pools its inputs
    before subtracting them (``x.mean() - target`` with both near 80) barely moves under them; it
    moves by its full spread when ``x`` moves up as a whole and ``target`` down."""
    for _ in range(ROUNDING_TRIALS):
        yield tuple(_nudged(t, generator) for t in inputs)
    floats = [i for i, t in enumerate(inputs) if isinstance(t, torch.Tensor) and t.dtype == torch.float32]
    eps = torch.finfo(torch.float32).eps
    for first in (1, -1):
        signs = {i: first * (1 if k % 2 == 0 else -1) for k, i in enumerate(floats)}
        yield tuple(t * (1 + eps * signs[i]) if i in signs else t for i, t in enumerate(inputs))


def _nudged(value, generator: torch.Generator):
    if not (isinstance(value, torch.Tensor) and value.dtype == torch.float32):
        return value
    signs = torch.randint(0, 2, value.shape, generator=generator).to(value.dtype) * 2 - 1
    return value * (1 + torch.finfo(value.dtype).eps * signs)


def rounding_sensitive(
    expected: np.ndarray, actual: np.ndarray, spread: float, rtol: float, atol: float
) -> str:
    """A one-line explanation when eager moves by more than the tolerance under one rounding of its
    inputs (``spread``) and ``actual`` is within ``FACTOR`` spreads of ``expected``; '' otherwise."""
    if expected.shape != actual.shape or not np.issubdtype(expected.dtype, np.floating):
        return ""
    if not (np.isfinite(expected).all() and np.isfinite(actual).all()):
        return ""
    tolerance = atol + rtol * float(np.abs(expected.astype(np.float64)).max(initial=0.0))
    off = float(np.abs(actual.astype(np.float64) - expected.astype(np.float64)).max(initial=0.0))
    if not tolerance < spread or off > FACTOR * spread:
        return ""
    return (
        f"eager float32 itself moves {spread:.2e} when its inputs move by one rounding "
        f"(tolerance {tolerance:.2e}); the artifact is {off:.2e} from it"
    )
