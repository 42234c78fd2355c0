"""X: shooting MPC for a differential-drive delivery robot: gradient steps with a backtracking
line search, an obstacle-repulsion fix-up, and early termination.

ref (H, 2) reference waypoints (m) over the horizon, p0 (2,) start position,
obstacle (3,) [x, y, radius]. Returns planned velocities (H, 2), planned path (H, 2),
iterations used (1,).
Constructs: 1, 3, 4, 6, 7, 9
"""
import torch
import torch.nn as nn


class MPCPlanner(nn.Module):
    def __init__(self, dt=0.2, lam=0.05, max_iter=25, vmax=1.5, avoid_obstacles=True):
        super().__init__()
        self.dt = dt
        self.lam = lam
        self.max_iter = max_iter
        self.vmax = vmax
        self.avoid_obstacles = avoid_obstacles

    def rollout(self, p0, u):
        return p0 + torch.cumsum(u, dim=0) * self.dt

    def cost(self, p0, u, ref):
        path = self.rollout(p0, u)
        return (path - ref).pow(2).sum() + self.lam * u.pow(2).sum()

    def grad(self, p0, u, ref):
        err = self.rollout(p0, u) - ref
        tail = torch.flip(torch.cumsum(torch.flip(err, [0]), 0), [0])
        return 2.0 * self.dt * tail + 2.0 * self.lam * u

    def _push_out(self, p0, u, obstacle):
        path = self.rollout(p0, u)
        d = (path - obstacle[:2]).norm(dim=-1)
        inside = d < obstacle[2]
        if not inside.any():
            return u
        k = int(torch.argmax(inside.float()))  # first waypoint inside the obstacle
        away = (path[k] - obstacle[:2]) / d[k].clamp(min=1e-3)
        u = u.clone()
        u[k] = u[k] + away * (obstacle[2] - d[k] + 0.1) / self.dt
        return u

    def forward(self, ref, p0, obstacle):
        u = torch.zeros_like(ref)
        it = 0
        for it in range(1, self.max_iter + 1):
            g = self.grad(p0, u, ref)
            gnorm = g.pow(2).sum()
            if gnorm < 1e-6:
                break
            c0 = self.cost(p0, u, ref)
            step = torch.tensor(1.0)
            # Armijo backtracking
            while self.cost(p0, u - step * g, ref) > c0 - 0.3 * step * gnorm and step > 1e-3:
                step = step * 0.5
            u = (u - step * g).clamp(-self.vmax, self.vmax)
            if self.avoid_obstacles:  # static
                u = self._push_out(p0, u, obstacle)
        return u, self.rollout(p0, u), torch.tensor([float(it)])


def _scenario(H, seed, obstacle_on_path=False, exact=False):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(1, H + 1, dtype=torch.float32).unsqueeze(1) * 0.2
    ref = torch.cat([0.8 * t, 0.3 * torch.sin(t)], 1)
    p0 = torch.tensor([0.0, 0.0])
    if exact:
        ref = p0 + torch.zeros(H, 2)
    if obstacle_on_path:
        mid = ref[H // 2]
        obs = torch.cat([mid + 0.05 * torch.randn(2, generator=g), torch.tensor([0.3])])
    else:
        obs = torch.tensor([-5.0, -5.0, 0.5])
    return ref, p0, obs


def model():
    torch.manual_seed(4618)
    return MPCPlanner().eval()


def example_inputs():
    return _scenario(12, 1, obstacle_on_path=True)


def dynamic_shapes():
    return ({0: torch.export.Dim("horizon", min=2, max=60)}, None, None)


def verify_inputs():
    return [
        example_inputs(),                          # obstacle on the path: push-out fires; line search backtracks
        _scenario(2, 2, exact=True),               # H=min, reference = start: zero gradient, break immediately
        _scenario(60, 3),                          # H=max, free space: runs all iterations, no push-out
        _scenario(6, 4, obstacle_on_path=True),    # short horizon with obstacle
    ]
