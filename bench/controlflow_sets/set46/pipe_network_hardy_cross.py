"""X: water-distribution ladder network balanced with the Hardy Cross method.

The network is a ladder: pipe i and pipe i+1 form loop i (pipe i clockwise, pipe i+1
counter-clockwise). q0 (P,) initial flow guess (m^3/s), r (P,) pipe resistance coefficients,
head loss h = r q |q|^1.85 -> n = 1.85. Returns balanced flows (P,), iterations used (1,),
and final max loop correction (1,).
Constructs: 1, 3, 4, 5, 6, 7
"""
import torch
import torch.nn as nn


class HardyCross(nn.Module):
    def __init__(self, n=1.85, tol=1e-5, max_iter=60, skip_tol=1e-7):
        super().__init__()
        self.n = n
        self.tol = tol
        self.max_iter = max_iter
        self.skip_tol = skip_tol

    def _loop_correction(self, q, r, i):
        qa, qb = q[i], -q[i + 1]
        h = r[i] * qa * qa.abs() ** (self.n - 1) + r[i + 1] * qb * qb.abs() ** (self.n - 1)
        dh = self.n * (r[i] * qa.abs() ** (self.n - 1) + r[i + 1] * qb.abs() ** (self.n - 1))
        return -h / dh.clamp(min=1e-9)

    def forward(self, q0, r):
        q = q0.clone()
        it = 0
        max_dq = torch.tensor(float("inf"))
        while max_dq > self.tol and it < self.max_iter:
            max_dq = torch.zeros(())
            for i in range(q.shape[0] - 1):
                dq = self._loop_correction(q, r, i)
                # this loop is already balanced: don't bother touching it
                if dq.abs() < self.skip_tol:
                    continue
                q = q.clone()
                q[i] = q[i] + dq
                q[i + 1] = q[i + 1] - dq
                max_dq = torch.maximum(max_dq, dq.abs())
            it += 1
        return q, torch.tensor([float(it)]), max_dq.reshape(1)


def model():
    torch.manual_seed(4616)
    return HardyCross().eval()


def example_inputs():
    return torch.tensor([0.30, 0.10, 0.25, 0.05]), torch.tensor([120.0, 300.0, 80.0, 500.0])


def dynamic_shapes():
    P = torch.export.Dim("pipes", min=2, max=32)
    return ({0: P}, {0: P})


def verify_inputs():
    g = torch.Generator().manual_seed(7)
    return [
        example_inputs(),                                                  # converges in a handful of sweeps
        (torch.tensor([0.2, 0.2]), torch.tensor([100.0, 100.0])),           # P=min, already balanced: every loop
                                                                           # skipped, one sweep
        (0.05 + 0.3 * torch.rand(32, generator=g), 50.0 + 400.0 * torch.rand(32, generator=g)),  # P=max
        (torch.tensor([5.0, 0.001, 3.0]), torch.tensor([1.0, 2000.0, 5.0])),  # stiff: hits the iteration cap
    ]
