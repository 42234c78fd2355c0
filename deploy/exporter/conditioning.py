"""Tell an artifact that is wrong from a model that is ill-conditioned at an input.

Some inputs make a model amplify rounding: a least-squares fit to one point, a matrix solve with a
condition number of 1e4. There eager float32 PyTorch is itself far from the exact answer, and any
other float32 runtime (another summation order, another solver) lands elsewhere near it, further
from eager than the parity tolerance. When an output misses parity, it is compared with the same
model run in float64 on the same inputs: the mismatch is put down to the model's conditioning only
when eager float32 itself misses the float64 answer by more than the tolerance (but by at most
``MAX_OWN_ERROR`` tolerances: beyond that a branch or a tie went another way, which is a real
difference) and the artifact is no more than ``FACTOR`` times further from it than eager is. Each
such output is listed in the report (``parity.conditioned``), with the three distances.
"""

from __future__ import annotations

import copy

import numpy as np
import torch

from deploy.runtimes.eager import flatten_outputs

FACTOR = 4.0
MAX_OWN_ERROR = 20.0


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
