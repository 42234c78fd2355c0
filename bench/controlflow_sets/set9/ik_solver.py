"""Learned-initialisation inverse kinematics for a 3-link planar arm (pick-and-place robot).

The solver is warm-started from the previous joint state when that is already closer
to the target than an MLP's proposed initial angles; damped-least-squares iterations
then refine them while the position error is above tolerance (tensor `while` with an
iteration cap). The damping factor is picked by a ternary on the current error, and
unreachable targets are first projected onto the workspace boundary.
Outputs: joint angles (3,), final error (1,), iterations used (1,) int64.
"""

import torch
import torch.nn as nn


def forward_kinematics(q, links):
    """Planar FK: returns end-effector (2,) and the 2x3 Jacobian."""
    angles = torch.cumsum(q, dim=0)
    c, s = torch.cos(angles), torch.sin(angles)
    pos = torch.stack([(links * c).sum(), (links * s).sum()])
    # dx/dq_j = -sum_{i>=j} l_i sin(a_i), dy/dq_j = sum_{i>=j} l_i cos(a_i)
    jx = -torch.flip(torch.cumsum(torch.flip(links * s, [0]), 0), [0])
    jy = torch.flip(torch.cumsum(torch.flip(links * c, [0]), 0), [0])
    return pos, torch.stack([jx, jy])


class IKSolver(nn.Module):
    def __init__(self, tol=1e-3, max_iter=8):
        super().__init__()
        self.register_buffer("links", torch.tensor([0.5, 0.35, 0.2]))
        self.init_net = nn.Sequential(nn.Linear(2, 64), nn.ReLU(), nn.Linear(64, 3))
        self.tol = tol
        self.max_iter = max_iter
        self.lam_far = 0.1
        self.lam_near = 0.01

    def forward(self, target, q_prev):
        reach = self.links.sum() * 0.999
        dist = target.norm()
        if dist > reach:
            target = target * (reach / dist)
        q = self.init_net(target)
        pos, jac = forward_kinematics(q, self.links)
        pos_prev, jac_prev = forward_kinematics(q_prev, self.links)
        if (target - pos_prev).norm() < (target - pos).norm():
            q, pos, jac = q_prev, pos_prev, jac_prev  # warm start
        err = target - pos
        it = torch.zeros(1, dtype=torch.long)
        while err.norm() > self.tol and it.item() < self.max_iter:
            lam = self.lam_far if err.norm() > 0.1 else self.lam_near
            jjt = jac @ jac.T + (lam**2) * torch.eye(2)
            q = q + jac.T @ torch.linalg.solve(jjt, err)
            q = torch.remainder(q + torch.pi, 2 * torch.pi) - torch.pi
            pos, jac = forward_kinematics(q, self.links)
            err = target - pos
            it = it + 1
        return q, err.norm().view(1), it


def model():
    torch.manual_seed(0)
    return IKSolver().eval()


def example_inputs():
    return (torch.tensor([0.6, 0.3]), torch.tensor([0.2, 0.4, -0.3]))


def verify_inputs():
    links = torch.tensor([0.5, 0.35, 0.2])
    q_here = torch.tensor([0.7, -0.4, 0.9])
    here, _ = forward_kinematics(q_here, links)
    return [
        (here, q_here),  # warm start already solves it: 0 iterations
        (torch.tensor([2.0, 1.0]), torch.zeros(3)),  # unreachable: projected to boundary
        (torch.tensor([0.9, 0.1]), torch.tensor([3.0, 0.0, 0.0])),  # learned init wins
        (torch.tensor([0.05, -0.1]), torch.tensor([-1.0, 2.5, 2.0])),  # close to the base
        (torch.tensor([-1.04, 0.0]), torch.tensor([0.0, 3.1, 0.0])),  # slow convergence: hits max_iter
    ]
