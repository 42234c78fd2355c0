"""Game/VFX rope: Verlet integration of a pinned rope with a learned
aerodynamic drag term, iterative distance-constraint relaxation until the
stretch error is small, ground collision with friction, and tearing when a
segment is overstretched.

Kind X. Constructs: 1, 2, 3, 4, 7, 9.
"""
import torch
import torch.nn as nn
from torch.export import Dim


def segment_lengths(pos):
    return (pos[1:] - pos[:-1]).norm(dim=-1)


def relax_once(pos, rest, stiffness):
    """One Jacobi pass over all distance constraints; point 0 is pinned."""
    delta = pos[1:] - pos[:-1]
    length = delta.norm(dim=-1, keepdim=True).clamp_min(1e-6)
    corr = stiffness * 0.5 * (length - rest) / length * delta
    move = torch.zeros_like(pos)
    move[:-1] += corr
    move[1:] -= corr
    move[0] = 0.0
    return pos + move


class Rope(nn.Module):
    def __init__(self, rest=10.0, substeps=4, dt=1.0 / 60.0, tol=1e-3, max_iters=50, tear_ratio=1.5):
        super().__init__()
        self.rest = rest
        self.substeps = substeps
        self.dt = dt / substeps
        self.tol = tol
        self.max_iters = max_iters
        self.tear_ratio = tear_ratio
        self.stiffness = 0.9
        self.register_buffer("gravity", torch.tensor([0.0, -981.0]))  # cm/s^2
        self.drag = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 2))
        with torch.no_grad():
            self.drag[2].weight.mul_(10.0)
            self.drag[2].bias.zero_()

    def stretch_error(self, pos):
        return ((segment_lengths(pos) - self.rest).abs() / self.rest).max()

    def satisfy_constraints(self, pos):
        err = self.stretch_error(pos)
        it = 0
        while err > self.tol and it < self.max_iters:
            pos = relax_once(pos, self.rest, self.stiffness)
            err = self.stretch_error(pos)
            it += 1
        return pos, err, it

    def forward(self, pos, prev, wind):
        # pos, prev: [N, 2] current and previous positions in cm (point 0 is the anchor)
        # wind: [2] cm/s
        anchor = pos[:1]
        iters_used = torch.zeros(())
        for _ in range(self.substeps):
            vel = (pos - prev) / self.dt
            rel = (vel - wind) / 100.0
            rel = torch.cat([rel, rel.norm(dim=-1, keepdim=True).expand(-1, 2)], dim=1)
            accel = self.gravity + self.drag(rel)
            new_pos = pos + (pos - prev) * 0.99 + accel * self.dt ** 2
            prev = pos
            pos = torch.cat([anchor, new_pos[1:]])

            below = pos[:, 1] < 0.0
            if below.any():
                # ground: push up, kill horizontal motion (friction)
                pos = torch.stack([pos[:, 0], pos[:, 1].clamp_min(0.0)], dim=1)
                prev = torch.where(below.unsqueeze(1), torch.stack([pos[:, 0], prev[:, 1]], dim=1), prev)

            pos, err, it = self.satisfy_constraints(pos)
            iters_used = iters_used + it

            if err > self.tear_ratio - 1.0:
                return pos, torch.ones(()), iters_used  # rope snapped
        return pos, torch.zeros(()), iters_used


def model():
    torch.manual_seed(15)
    return Rope().eval()


def _hanging(n, kick=0.0):
    y = 100.0 + 10.0 * (n - 1) - 10.0 * torch.arange(n, dtype=torch.float32)
    pos = torch.stack([torch.zeros(n), y], dim=1)
    prev = pos.clone()
    prev[1:, 0] -= kick * torch.linspace(0, 1, n - 1)
    return pos, prev


def _lying(n):
    pos = torch.stack([10.0 * torch.arange(n, dtype=torch.float32), torch.zeros(n)], dim=1)
    return pos, pos.clone()


def example_inputs():
    pos, prev = _hanging(12, kick=2.0)
    return pos, prev, torch.tensor([300.0, 0.0])


def dynamic_shapes():
    n = Dim("points", min=3, max=64)
    return ({0: n}, {0: n}, None)


def verify_inputs():
    return [
        example_inputs(),  # swinging in the wind, in the air: relaxation loop runs several times, no tear
        (*_lying(8), torch.tensor([0.0, 0.0])),  # lying flat on the ground: collision branch, error ~0 -> while runs 0 times
        (*_hanging(64, kick=300.0), torch.tensor([0.0, 0.0])),  # max points, violent whip: hits 50-iteration cap and tears (early return)
        (*_hanging(3), torch.tensor([-100.0, 0.0])),  # min points, gentle: no ground contact
    ]
