"""Power-grid state estimation with bad-data rejection (substation edge server).

Bus voltage angles of a 6-bus network are estimated from line-flow and injection measurements
(P_ij = b_ij sin(th_i - th_j)) by weighted Gauss-Newton iterations until the update is small.
Afterwards the largest normalised residual is tested; a gross error removes that measurement
(weight 0) and the estimation is rerun, up to two times.
Tricky: while loop on a tensor convergence test nested inside an outer while loop with a tensor
test and a cap, helper function containing the inner loop, torch.linalg.solve.
"""
import torch
from torch import nn

LINES = [(0, 1), (0, 2), (1, 2), (1, 3), (2, 4), (3, 4), (3, 5), (4, 5)]
NB = 6


class StateEstimator(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("b", 5.0 + 10.0 * torch.rand(len(LINES)))
        inc = torch.zeros(len(LINES), NB)
        for k, (i, j) in enumerate(LINES):
            inc[k, i], inc[k, j] = 1.0, -1.0
        self.register_buffer("inc", inc)                       # (L, NB)
        self.register_buffer("sigma", torch.full((len(LINES) + NB,), 0.01))
        self.tol = 1e-5
        self.max_iters = 15
        self.bad_thr = 4.0
        self.max_removals = 2

    def h(self, theta):
        flows = self.b * torch.sin(self.inc @ theta)
        inj = self.inc.t() @ flows
        return torch.cat([flows, inj])

    def jac(self, theta):
        dflow = (self.b * torch.cos(self.inc @ theta)).unsqueeze(1) * self.inc   # (L, NB)
        return torch.cat([dflow, self.inc.t() @ dflow])[:, 1:]                  # slack bus 0 fixed

    def gauss_newton(self, z, w):
        theta = torch.zeros(NB)
        step = torch.full((), 1.0)
        it = 0
        while step > self.tol and it < self.max_iters:
            r = z - self.h(theta)
            J = self.jac(theta)
            G = J.t() @ (w.unsqueeze(1) * J) + 1e-6 * torch.eye(NB - 1)
            dx = torch.linalg.solve(G, J.t() @ (w * r))
            theta = theta + torch.cat([torch.zeros(1), dx])
            step = dx.abs().max()
            it += 1
        return theta

    def forward(self, z):
        # z: (L + NB,) measured flows then injections (p.u.)
        w = 1.0 / self.sigma ** 2
        theta = self.gauss_newton(z, w)
        rn = (z - self.h(theta)).abs() / self.sigma * (w > 0).float()
        removals = 0
        while rn.max() > self.bad_thr and removals < self.max_removals:
            worst = torch.argmax(rn)
            w = torch.where(torch.arange(z.shape[0]) == worst, torch.zeros_like(w), w)
            theta = self.gauss_newton(z, w)
            rn = (z - self.h(theta)).abs() / self.sigma * (w > 0).float()
            removals += 1
        return theta, rn, (w > 0).float()


def model():
    torch.manual_seed(18)
    return StateEstimator().eval()


def _meas(seed, bad=(), scale=0.05):
    m = model()
    g = torch.Generator().manual_seed(seed)
    theta = torch.cat([torch.zeros(1), scale * torch.randn(NB - 1, generator=g)])
    z = m.h(theta) + 0.003 * torch.randn(len(LINES) + NB, generator=g)
    for k, err in bad:
        z[k] += err
    return (z,)


def example_inputs():
    return _meas(0)


def verify_inputs():
    return [_meas(1, bad=[(3, 0.8)]), _meas(2, bad=[(1, 1.0), (9, -0.9), (6, 0.7)], scale=0.1),
            (torch.zeros(len(LINES) + NB),)]
