"""Inverse kinematics for a 3-link planar arm (damped least squares).

Targets outside the workspace are pulled back onto 98% of the reach, then the
joint angles are updated with damped-least-squares steps until every target
in the batch is reached (or the iteration budget runs out).  The damping is
adapted to the current error.  A learned warm start network proposes an
initial configuration unless one is given (non-zero q0).
"""
import torch
import torch.nn as nn


def adaptive_damping(err, far=0.5):
    # heavier damping while far away keeps steps stable near singularities
    return 0.3 if err.max() > far else 0.05


class PlanarArm(nn.Module):
    def __init__(self, lengths=(1.0, 0.8, 0.5)):
        super().__init__()
        self.register_buffer("lengths", torch.tensor(lengths))

    def forward(self, q):
        theta = torch.cumsum(q, dim=1)
        pos = torch.zeros(q.shape[0], 2)
        for k in range(self.lengths.shape[0]):
            pos = pos + self.lengths[k] * torch.stack([theta[:, k].cos(), theta[:, k].sin()], 1)
        return pos

    def jacobian(self, q):
        theta = torch.cumsum(q, dim=1)
        lx = self.lengths * theta.cos()
        ly = self.lengths * theta.sin()
        # joint j moves every link k >= j: reversed cumulative sums
        sx = lx.flip(1).cumsum(1).flip(1)
        sy = ly.flip(1).cumsum(1).flip(1)
        return torch.stack([-sy, sx], dim=1)              # [B, 2, 3]


class ArmIKSolver(nn.Module):
    def __init__(self, tol=0.01, max_iters=4):
        super().__init__()
        self.arm = PlanarArm()
        self.tol = tol
        self.max_iters = max_iters
        self.warm = nn.Sequential(nn.Linear(2, 32), nn.Tanh(), nn.Linear(32, 3))

    def forward(self, target, q0):
        reach = self.arm.lengths.sum()
        dist = target.norm(dim=1, keepdim=True)
        if (dist > 0.98 * reach).any():
            target = target * torch.clamp(0.98 * reach / dist, max=1.0)
        if (q0 == 0).all():
            q = self.warm(target)
        else:
            q = q0
        e = target - self.arm(q)
        err = e.norm(dim=1)
        it = 0
        while bool(err.max() > self.tol) and it < self.max_iters:
            J = self.arm.jacobian(q)
            lam = adaptive_damping(err)
            JJt = J @ J.transpose(1, 2) + lam ** 2 * torch.eye(2)
            dq = (J.transpose(1, 2) @ torch.linalg.solve(JJt, e.unsqueeze(-1))).squeeze(-1)
            q = q + dq
            e = target - self.arm(q)
            err = e.norm(dim=1)
            it += 1
        return q, err


def model():
    torch.manual_seed(0)
    return ArmIKSolver().eval()


def example_inputs():
    g = torch.Generator().manual_seed(0)
    return (torch.rand(4, 2, generator=g) + 0.3, torch.rand(4, 3, generator=g))


def dynamic_shapes():
    b = torch.export.Dim("batch", min=2, max=32)
    return ({0: b}, {0: b})


def verify_inputs():
    arm = PlanarArm()
    q_solved = torch.tensor([[0.3, 1.2, 0.9], [1.0, -0.5, 0.8]])
    g = torch.Generator().manual_seed(9)
    return [
        (arm(q_solved), q_solved.clone()),                            # already solved
        (arm(q_solved) + 0.02, q_solved.clone()),                     # tiny correction
        (torch.tensor([[3.0, 1.0], [0.5, 1.2], [-1.0, 0.4]]),         # unreachable target clamped
         torch.full((3, 3), 0.2)),
        (torch.rand(5, 2, generator=g) + 0.2, torch.zeros(5, 3)),     # warm start network
        (torch.tensor([[-1.2, -0.9], [0.2, -1.5]]), torch.tensor([[0.1, 0.1, 0.1], [0.05, 0.02, 0.0]])),  # far away
    ]
