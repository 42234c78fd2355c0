"""Pick-and-place robot: cyclic coordinate descent inverse kinematics for a planar arm with a
variable number of joints, with joint limits and an out-of-reach fallback."""
import torch
import torch.nn as nn


def forward_kinematics(angles, lengths):
    cum = torch.cumsum(angles, 0)
    steps = torch.stack([lengths * torch.cos(cum), lengths * torch.sin(cum)], -1)
    return torch.cat([torch.zeros(1, 2), torch.cumsum(steps, 0)])


class ArmIkCcdSolver(nn.Module):
    def __init__(self, tol=0.01, max_iter=8, limit=2.6, limit_joints=True):
        super().__init__()
        self.tol = tol
        self.max_iter = max_iter
        self.limit = limit
        self.limit_joints = limit_joints
        self.damping = nn.Parameter(torch.randn(()))

    def forward(self, angles, lengths, target):
        n = angles.shape[0]
        reachable = target.norm() <= lengths.sum()
        if not reachable:
            heading = torch.atan2(target[1], target[0])
            stretched = torch.cat([heading[None], torch.zeros(n - 1)])
            return stretched, target.norm() - lengths.sum(), torch.tensor(0)
        damp = 0.7 + 0.3 * torch.sigmoid(self.damping)
        err = (forward_kinematics(angles, lengths)[-1] - target).norm()
        it = 0
        while err > self.tol and it < self.max_iter:
            for j in range(n - 1, -1, -1):
                pos = forward_kinematics(angles, lengths)
                to_end = pos[-1] - pos[j]
                to_tgt = target - pos[j]
                cross = to_end[0] * to_tgt[1] - to_end[1] * to_tgt[0]
                dot = (to_end * to_tgt).sum()
                angles = angles + damp * torch.atan2(cross, dot) * (torch.arange(n) == j).to(angles.dtype)
                if self.limit_joints:  # static
                    angles = angles.clamp(-self.limit, self.limit)
            err = (forward_kinematics(angles, lengths)[-1] - target).norm()
            it += 1
        return angles, err, torch.tensor(it)


def model():
    torch.manual_seed(0)
    return ArmIkCcdSolver().eval()


def example_inputs():
    return (torch.tensor([0.3, 0.4, -0.2]), torch.tensor([0.5, 0.4, 0.3]), torch.tensor([0.35, 0.72]))


def dynamic_shapes():
    joints = torch.export.Dim("joints", min=2, max=12)
    return ({0: joints}, {0: joints}, None)


def verify_inputs():
    return [
        (torch.tensor([0.1, 0.2]), torch.tensor([0.4, 0.3]), torch.tensor([1.1, 0.4])),          # out of reach
        (torch.tensor([0.0, 0.5, 0.5, -0.3]), torch.tensor([0.3, 0.3, 0.2, 0.2]), torch.tensor([-0.4, 0.55])),
        # already at the target (end effector of these angles is ~(0.601, 0.295))
        (torch.tensor([0.2, 0.6]), torch.tensor([0.4, 0.3]), torch.tensor([0.604, 0.291])),
    ]
