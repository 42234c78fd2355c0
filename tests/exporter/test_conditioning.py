"""Verification tells an artifact that is wrong from a model that is ill-conditioned at an input:
a plane fit to a single point (condition number ~1e4) through the real ONNX artifact."""

from __future__ import annotations

import numpy as np
import torch

from deploy import runtimes
from deploy.exporter.conditioning import conditioned, float64_runner
from deploy.exporter.verify import Case, eager_reference, verify
from deploy.runtimes.onnx.emit import build_onnx


class PlaneFit(torch.nn.Module):
    """z = a x + b y + c by regularised least squares over the points under a height."""

    def forward(self, pts):
        w = (pts[:, 2] < pts[:, 2].min() + 0.3).float()
        A = torch.stack([pts[:, 0], pts[:, 1], torch.ones_like(pts[:, 0])], 1)
        Aw = A * w.unsqueeze(1)
        return torch.linalg.solve(A.t() @ Aw + 1e-3 * torch.eye(3), Aw.t() @ pts[:, 2])


def _points(n: int, seed: int) -> torch.Tensor:
    return torch.randn(n, 3, generator=torch.Generator().manual_seed(seed)) * 3.0


def test_an_artifact_as_far_from_float64_as_eager_is_accepted_and_listed(tmp_path):
    module = PlaneFit()
    program = torch.export.export(module, (_points(16, 0),), dynamic_shapes=({0: torch.export.Dim("n")},))
    path = tmp_path / "model.onnx"
    path.write_bytes(build_onnx(program, run_onnxsim=False).model.SerializeToString())
    session = runtimes.load(path)
    reference = eager_reference(module)
    # one point under the height on each: eager float32 is 3e-4..7e-4 from float64 there
    cases = [Case(f"seed {s}", (_points(n, s),)) for s, n in ((5, 16), (10, 16), (11, 40), (0, 16))]
    plain = verify(session, lambda inputs: reference(inputs), cases)  # no float64 reference: strict
    assert not plain.ok and plain.max_rel > 1e-4
    checked = verify(session, reference, cases)
    assert checked.ok and checked.cases == 4
    assert len(checked.conditioned) == 3 and all("from float64" in line for line in checked.conditioned)


def test_real_differences_are_not_put_down_to_conditioning():
    exact = np.array([1.0, 2.0], dtype=np.float64)
    tol = 1e-5 + 1e-4 * 2.0
    ill = exact + np.array([0.0, 3 * tol])  # eager itself 3 tolerances away
    assert conditioned(ill.astype(np.float32), (exact - 2 * tol).astype(np.float32), exact, 1e-4, 1e-5)
    # eager accurate: an artifact off by 3 tolerances is wrong
    assert not conditioned(exact.astype(np.float32), ill.astype(np.float32), exact, 1e-4, 1e-5)
    # the artifact much further than eager is
    assert not conditioned(ill.astype(np.float32), (exact + 20 * tol).astype(np.float32), exact, 1e-4, 1e-5)
    # eager itself far off (a branch or a tie went another way in float64): a real difference
    far = exact + np.array([0.0, 50 * tol])
    assert not conditioned(far.astype(np.float32), exact.astype(np.float32), exact, 1e-4, 1e-5)
    # integers are compared exactly
    assert not conditioned(np.array([1, 2]), np.array([1, 3]), np.array([1, 2]), 1e-4, 1e-5)


def test_float64_runner_is_none_for_a_model_that_fixes_its_dtype():
    class Fixed(torch.nn.Module):
        def forward(self, x):
            return x + torch.ones(2, dtype=torch.float32).to(x.dtype).sum() * torch.zeros(1).view(())

    class Mixed(torch.nn.Module):
        def forward(self, x):
            return torch.mm(x, torch.ones(2, 2, dtype=torch.float32))

    x = torch.ones(2, 2)
    assert float64_runner(Fixed())((x,))[0].dtype == np.float64
    assert float64_runner(Mixed())((x,)) is None
    module = PlaneFit()
    float64_runner(module)((_points(8, 1),))
    assert all(p.dtype == torch.float32 for p in module.parameters())  # the user's module is untouched


def test_float64_reference_makes_the_tensors_forward_creates_in_float64_too():
    class PolyFit(torch.nn.Module):
        def forward(self, y):
            x = torch.linspace(-1.0, 1.0, y.shape[0])  # the default dtype
            vander = torch.stack([x**k for k in range(3)], 1)
            return vander @ torch.linalg.solve(vander.T @ vander, vander.T @ y)

    y = torch.randn(16)
    out = float64_runner(PolyFit())((y,))
    assert out is not None and out[0].dtype == np.float64
    assert torch.get_default_dtype() == torch.float32  # restored
    np.testing.assert_allclose(out[0], PolyFit()(y).numpy(), rtol=1e-3, atol=1e-4)


class LogisticMap(torch.nn.Module):
    """200 steps of x <- r x (1 - x): chaotic at r = 3.99 (rounding grows to order one), settled at r = 2.5."""

    def forward(self, x, r):
        for _ in range(200):
            x = r * x * (1 - x)
        return x


class ExpandedMap(torch.nn.Module):
    """The same map written r x - r x^2: equal in exact arithmetic, rounded differently."""

    def forward(self, x, r):
        for _ in range(200):
            x = r * x - r * x * x
        return x


class _Eager:
    """An artifact stand-in running a module eagerly (the verifier, not a backend, is under test)."""

    def __init__(self, module):
        self.module = module

    def run(self, arrays):
        return [self.module(*map(torch.from_numpy, arrays)).numpy()]


def test_an_output_eager_cannot_pin_down_under_one_rounding_is_accepted_and_listed():
    x = torch.rand(64, generator=torch.Generator().manual_seed(0)) * 0.8 + 0.1
    chaotic = [Case("chaotic", (x, torch.tensor(3.99)))]
    reference = eager_reference(LogisticMap())
    assert not verify(_Eager(ExpandedMap()), lambda inputs: reference(inputs), chaotic).ok
    checked = verify(_Eager(ExpandedMap()), reference, chaotic)
    assert checked.ok and len(checked.conditioned) == 1
    assert "when its inputs move by one rounding" in checked.conditioned[0]


def test_a_wrong_artifact_at_a_stable_input_is_still_a_mismatch():
    x = torch.rand(64, generator=torch.Generator().manual_seed(0)) * 0.8 + 0.1
    settled = [Case("settled", (x, torch.tensor(2.5)))]

    class Biased(torch.nn.Module):
        def forward(self, x, r):
            return LogisticMap()(x, r) + 1e-3

    checked = verify(_Eager(Biased()), eager_reference(LogisticMap()), settled)
    assert not checked.ok and checked.conditioned == []
    assert verify(_Eager(ExpandedMap()), eager_reference(LogisticMap()), settled).ok


def test_a_stateful_models_drift_is_not_taken_for_a_rounding_spread():
    class Counter(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.calls = 0

        def forward(self, x):
            self.calls += 1
            return x * self.calls

    counter = Counter()
    counter(torch.zeros(1))
    cases = [Case("example", (torch.randn(2, 3),))]
    checked = verify(_Eager(torch.nn.Identity()), eager_reference(counter), cases)  # x against 2x, 3x, ...
    assert not checked.ok and checked.conditioned == []


class PooledError(torch.nn.Module):
    """A profile's mean less its target, both near 80: the answer (near 0.05) cancels most digits."""

    def forward(self, profile, target):
        return profile.mean(0, keepdim=True) - target


class _Offset:
    """An artifact stand-in: the reference's answer moved by ``offset``."""

    def __init__(self, offset: float):
        self.offset = offset

    def run(self, arrays):
        profile, target = map(torch.from_numpy, arrays)
        return [(PooledError()(profile, target) + self.offset).numpy()]


def test_a_pooled_difference_is_measured_with_its_inputs_moved_as_a_whole():
    # random signs average out over the 64 entries (eager moves ~1e-5, under the 1.5e-5 tolerance);
    # the profile up and the target down by one rounding move eager by ~1.9e-5
    profile = 80.0 + 0.1 * torch.rand(64, generator=torch.Generator().manual_seed(0))
    cases = [Case("pooled", (profile, torch.tensor([80.0])))]
    reference = eager_reference(PooledError())
    assert not verify(_Offset(3e-5), lambda inputs: reference(inputs), cases).ok  # no spread measured
    checked = verify(_Offset(3e-5), reference, cases)
    assert checked.ok and "when its inputs move by one rounding" in checked.conditioned[0]
    assert not verify(_Offset(1e-4), reference, cases).ok  # beyond four spreads: a real difference
