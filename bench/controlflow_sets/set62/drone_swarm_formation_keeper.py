"""Light-show drone swarm: formation set-point solver with collision avoidance.

Given current drone positions (2-D, metres) and the formation template
(offsets around the swarm centroid), the ground station iterates commanded
positions towards the template. Each iteration moves every drone a fraction
of the way, adds a repulsion from any neighbour inside the safety radius and
caps the step length; iterations stop once the worst formation error is
small or the iteration budget is spent. A learned velocity-feedforward policy
then turns the set-point change and current velocity into a velocity command.

Kind: X.  Constructs: 1, 2, 3, 4, 5, 7.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class FormationKeeper(nn.Module):
    def __init__(self, gain=0.5, safe_dist=1.0, max_step=1.5, tol=0.05, max_iter=12):
        super().__init__()
        self.policy = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 2))
        self.gain = gain
        self.safe_dist = safe_dist
        self.max_step = max_step
        self.tol = tol
        self.max_iter = max_iter

    def repulsion(self, pos, i):
        diff = pos[i] - pos                      # vectors from every drone to drone i
        dist = diff.norm(dim=1)
        close = dist < self.safe_dist
        close[i] = False  # not a neighbour of itself
        if not close.any():
            return torch.zeros(2)
        push = diff[close] / dist[close].unsqueeze(1) * (self.safe_dist - dist[close]).unsqueeze(1)
        return push.sum(dim=0)

    def limited_step(self, step):
        length = step.norm()
        if length > self.max_step:
            return step * (self.max_step / length)
        return step

    def forward(self, positions, velocities, template):
        # positions, velocities, template: [N, 2]
        target = positions.mean(dim=0) + template - template.mean(dim=0)
        cmd = positions.clone()
        err = (target - cmd).norm(dim=1).max()
        it = 0
        while err > self.tol and it < self.max_iter:
            moves = []
            for i in range(cmd.shape[0]):
                step = self.gain * (target[i] - cmd[i]) + self.repulsion(cmd, i)
                moves.append(self.limited_step(step))
            cmd = cmd + torch.stack(moves)
            err = (target - cmd).norm(dim=1).max()
            it += 1
        vel_cmd = self.policy(torch.cat([cmd - positions, velocities], dim=1))
        return cmd, vel_cmd, torch.tensor(it)


def model():
    torch.manual_seed(637)
    return FormationKeeper().eval()


def _grid(n, spacing):
    side = int(n ** 0.5 + 0.999)
    pts = [(spacing * (k % side), spacing * (k // side)) for k in range(n)]
    return torch.tensor(pts, dtype=torch.float32)


def _case(n, seed, spread, template_spacing, jitter=0.0):
    g = torch.Generator().manual_seed(seed)
    pos = _grid(n, spread) + jitter * torch.randn(n, 2, generator=g)
    vel = 0.3 * torch.randn(n, 2, generator=g)
    templ = _grid(n, template_spacing)
    # permute the template so drones have to move past each other
    templ = templ[torch.randperm(n, generator=g)]
    return pos, vel, templ


def example_inputs():
    return _case(9, 1, 3.0, 2.0, jitter=0.3)


def dynamic_shapes():
    n = Dim("drones", min=2, max=16)
    return ({0: n}, {0: n}, {0: n})


def verify_inputs():
    return [
        example_inputs(),                 # 9 drones reshuffle: near passes (repulsion), long moves capped; converges
        _case(4, 2, 2.0, 2.0, jitter=0.2),  # 4 drones swap slots of the same grid: converges in a few iterations
        (_grid(3, 2.0), torch.zeros(3, 2), _grid(3, 2.0)),  # already in formation: loop runs 0 times
        _case(16, 3, 0.6, 0.8, jitter=0.05),  # template tighter than the safety radius: repulsion fights the
                                              # attraction, hits the iteration budget
        _case(2, 4, 10.0, 1.4),           # 2 drones far apart, template pulls them together: capped steps
    ]
