"""torch.linalg.solve, inv and pinv, torch.searchsorted, cumprod and fft.rfftfreq/fftfreq, which torch.onnx cannot
translate, reach ONNX by their definitions (deploy.runtimes.onnx.linalg) and match eager."""

from __future__ import annotations

import numpy as np
import onnxruntime as ort
import pytest
import torch
from torch.export import Dim

from deploy.runtimes.onnx.emit import build_onnx
from deploy.runtimes.onnx.linalg import fftfreq, inv, pinv, rfftfreq, searchsorted, solve


def _session(program) -> ort.InferenceSession:
    model = build_onnx(program, run_onnxsim=False).model
    return ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])


@pytest.mark.parametrize(
    "a_shape, b_shape, left",
    [
        ((3, 3), (3,), True),
        ((2, 2), (2, 4), True),
        ((5, 4, 4), (5, 4, 1), True),
        ((4, 4), (3, 4, 2), True),
        ((3, 3), (2, 3), False),
    ],
)
def test_solve_matches_torch(a_shape, b_shape, left):
    g = torch.Generator().manual_seed(0)
    a = torch.randn(a_shape, generator=g) + 3 * torch.eye(a_shape[-1])
    b = torch.randn(b_shape, generator=g)
    torch.testing.assert_close(
        solve(a, b, left=left), torch.linalg.solve(a, b, left=left), rtol=1e-5, atol=1e-5
    )


def test_solve_pivots_on_a_zero_leading_entry():
    a = torch.tensor([[0.0, 2.0, 1.0], [1.0, 1.0, 0.0], [3.0, 0.0, 1.0]])
    b = torch.tensor([1.0, 2.0, 3.0])
    torch.testing.assert_close(solve(a, b), torch.linalg.solve(a, b))


def test_solve_of_an_ill_conditioned_system_is_as_accurate_as_torch():
    # a regularised plane fit to one point (condition number ~1.3e4): Gauss-Jordan elimination was 14x
    # further from the float64 answer than torch (4.0e-4 against 2.9e-5); LU and back substitution 4.5e-5
    a = torch.tensor(
        [
            [0.026996957138180733, 0.5682557225227356, -0.1612357199192047],
            [0.5682557225227356, 12.42224407196045, -3.524378538131714],
            [-0.1612357199192047, -3.524378538131714, 1.0010000467300415],
        ]
    )
    b = torch.tensor([0.8470650911331177, 18.51561164855957, -5.253582000732422])
    exact = torch.linalg.solve(a.double(), b.double())
    ours = (solve(a, b).double() - exact).abs().max()
    theirs = (torch.linalg.solve(a, b).double() - exact).abs().max()
    assert ours <= 3 * theirs + 1e-6, (float(ours), float(theirs))


@pytest.mark.parametrize("right", [False, True])
def test_searchsorted_matches_torch_with_ties(right):
    edges = torch.tensor([0.0, 0.5, 0.5, 1.0, 2.0])
    values = torch.tensor([[-1.0, 0.5, 0.7], [1.0, 2.0, 3.0]])
    assert torch.equal(
        searchsorted(edges, values, right=right), torch.searchsorted(edges, values, right=right)
    )
    rows = torch.sort(torch.randn(3, 8, generator=torch.Generator().manual_seed(1))).values
    points = torch.randn(3, 5, generator=torch.Generator().manual_seed(2))
    assert torch.equal(
        searchsorted(rows, points, side="right" if right else "left"),
        torch.searchsorted(rows, points, right=right),
    )


@pytest.mark.parametrize("right", [False, True])
def test_searchsorted_of_unsorted_sequences_matches_torch(right):
    """Not sorted (as a random verification input is): the same index as torch's binary search,
    NaN included, for every length up to 40."""
    g = torch.Generator().manual_seed(5)
    for n in range(1, 41):
        edges = torch.randint(-4, 5, (n,), generator=g).float()
        rows = torch.randint(-4, 5, (3, n), generator=g).float()
        edges[n // 2] = float("nan")
        values = torch.tensor([-5.0, -1.0, 0.0, 0.5, 2.0, 5.0, float("nan")])
        assert torch.equal(
            searchsorted(edges, values, right=right), torch.searchsorted(edges, values, right=right)
        ), n
        points = values[:4].repeat(3, 1)
        assert torch.equal(
            searchsorted(rows, points, right=right), torch.searchsorted(rows, points, right=right)
        ), n


class Resample(torch.nn.Module):
    """A damped least-squares step and a systematic resampling index: both ops at once."""

    def forward(self, jac, err, weights, positions):
        step = jac.T @ torch.linalg.solve(jac @ jac.T + 0.01 * torch.eye(2), err)
        cdf = torch.cumsum(weights, 0)
        return step, torch.searchsorted(cdf, positions).clamp(max=weights.shape[0] - 1)


def test_programs_with_solve_and_searchsorted_translate_and_match():
    g = torch.Generator().manual_seed(3)
    example = (
        torch.randn(2, 3, generator=g),
        torch.randn(2, generator=g),
        torch.rand(6, generator=g),
        torch.rand(4, generator=g),
    )
    dynamic = (None, None, {0: Dim("particles", min=2, max=64)}, {0: Dim("draws", min=1, max=64)})
    session = _session(torch.export.export(Resample(), example, dynamic_shapes=dynamic))
    for n, k, signed in ((6, 4, False), (30, 9, False), (2, 1, False), (40, 16, True)):
        inputs = (
            torch.randn(2, 3, generator=g),
            torch.randn(2, generator=g),
            torch.randn(n, generator=g) if signed else torch.rand(n, generator=g),
            torch.rand(k, generator=g) * n / 2,
        )
        if not signed:  # signed weights: a cdf that is not sorted, searched as torch searches it
            inputs[2].div_(inputs[2].sum())
        expected = Resample()(*inputs)
        got = session.run(None, {i.name: x.numpy() for i, x in zip(session.get_inputs(), inputs)})
        np.testing.assert_allclose(got[0], expected[0].numpy(), rtol=1e-5, atol=1e-6)
        np.testing.assert_array_equal(got[1], expected[1].numpy())


@pytest.mark.parametrize("shape", [(2, 2), (4, 4), (3, 3, 3)])
def test_inv_matches_torch(shape):
    g = torch.Generator().manual_seed(4)
    a = torch.randn(shape, generator=g) + 3 * torch.eye(shape[-1])
    torch.testing.assert_close(inv(a), torch.linalg.inv(a), rtol=1e-5, atol=1e-5)


class KalmanGain(torch.nn.Module):
    """A Kalman update: the gain through the innovation covariance's inverse."""

    def forward(self, P, H, R):
        S = H @ P @ H.T + R
        return P @ H.T @ torch.linalg.inv(S)


def test_program_with_inv_translates_and_matches():
    g = torch.Generator().manual_seed(5)
    spd = torch.randn(4, 4, generator=g)
    example = (spd @ spd.T + torch.eye(4), torch.eye(4)[:2], 0.1 * torch.eye(2))
    session = _session(torch.export.export(KalmanGain(), example))
    got = session.run(None, {i.name: x.numpy() for i, x in zip(session.get_inputs(), example)})
    np.testing.assert_allclose(got[0], KalmanGain()(*example).numpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("shape", [(8, 6), (40, 3), (3, 5), (4, 7, 2), (6, 6), (2, 12)])
@pytest.mark.parametrize("kind", ["random", "rank_deficient", "graded"])
def test_pinv_is_as_accurate_as_torch(shape, kind):
    g = torch.Generator().manual_seed(6)
    a = torch.randn(shape, generator=g)
    if kind == "rank_deficient":  # torch's cutoff drops the zero singular value: so must we
        a[..., -1] = 2 * a[..., 0]
    if kind == "graded":
        a = a * torch.logspace(0, -3, shape[-1])
    exact = torch.linalg.pinv(a.double())
    ours = (pinv(a).double() - exact).abs().max()
    theirs = (torch.linalg.pinv(a).double() - exact).abs().max()
    assert ours <= 3 * theirs + 1e-6 * exact.abs().max(), (float(ours), float(theirs))


@pytest.mark.parametrize(
    "tolerance", [{"rtol": 0.3}, {"atol": 1.0}, {"atol": torch.tensor(0.5)}, {"atol": 0.0}]
)
def test_pinv_applies_torchs_cutoffs(tolerance):
    a = torch.randn(10, 4, generator=torch.Generator().manual_seed(7))
    torch.testing.assert_close(pinv(a, **tolerance), torch.linalg.pinv(a, **tolerance), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("n", [1, 2, 5, 8, 255, 256])
@pytest.mark.parametrize("d", [1.0, 1 / 128])
def test_fft_frequencies_equal_torchs(n, d):
    assert torch.equal(rfftfreq(n, d), torch.fft.rfftfreq(n, d))
    assert torch.equal(fftfreq(n, d), torch.fft.fftfreq(n, d))


class VisualServoStep(torch.nn.Module):
    """One image-based visual servoing step: the velocity from the interaction matrix's pseudo-inverse
    (2P x 3, P points a dynamic size), and the spectrum's frequency axis."""

    def forward(self, interaction, error, signal):
        velocity = -0.5 * torch.linalg.pinv(interaction) @ error
        power = torch.fft.rfft(signal).abs() ** 2
        return velocity, (power * torch.fft.rfftfreq(signal.shape[0], 1.0 / 128)).sum() / power.sum()


def test_program_with_pinv_and_rfftfreq_translates_and_matches():
    g = torch.Generator().manual_seed(8)
    example = (torch.randn(12, 3, generator=g), torch.randn(12, generator=g), torch.randn(64, generator=g))
    dynamic = ({0: Dim("rows", min=4, max=64)}, {0: Dim("rows", min=4, max=64)}, None)
    session = _session(torch.export.export(VisualServoStep(), example, dynamic_shapes=dynamic))
    for rows in (12, 4, 50):
        inputs = (torch.randn(rows, 3, generator=g), torch.randn(rows, generator=g), example[2])
        expected = VisualServoStep()(*inputs)
        got = session.run(None, {i.name: x.numpy() for i, x in zip(session.get_inputs(), inputs)})
        np.testing.assert_allclose(got[0], expected[0].numpy(), rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(got[1], expected[1].numpy(), rtol=1e-5)
