"""Image-based visual servoing (IBVS) for an eye-in-hand camera: a small network refines
the per-feature depth estimates, then the classic control law v = -lambda L^+ e is iterated
on the predicted feature motion until the feature error is small, with an adaptive gain
and an abort when a feature would leave the field of view.

Kind T. Constructs: 1 (if on tensor norms / any()), 2 (early return from inside the loop),
3 (and in the while condition; or in the abort test), 4 (while on a tensor error norm with
loop-carried features), 7 (interaction-matrix and gain helpers with their own branches).
"""
import torch
import torch.nn as nn


def interaction_matrix(s, z):
    """Stacked 2x6 image Jacobians of normalized point features s (P, 2) at depths z (P,)."""
    x, y = s[:, 0], s[:, 1]
    inv_z = 1.0 / z
    zero = torch.zeros_like(x)
    row_x = torch.stack([-inv_z, zero, x * inv_z, x * y, -(1.0 + x * x), y], 1)
    row_y = torch.stack([zero, -inv_z, y * inv_z, 1.0 + y * y, -x * y, -x], 1)
    return torch.stack([row_x, row_y], 1).reshape(-1, 6)


def adaptive_gain(err_norm, lam_far, lam_near):
    # large error: stay gentle to avoid big camera motions; close in: converge fast
    if err_norm > 0.5:
        return lam_far
    return lam_near


class VisualServo(nn.Module):
    def __init__(self, tol=5e-3, max_iter=60, fov=1.0, dt=0.5):
        super().__init__()
        self.tol = tol
        self.max_iter = max_iter
        self.fov = fov
        self.dt = dt
        self.depth_refine = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 1))

    def forward(self, s, s_star, z):
        # s, s_star: (P, 2) current / desired normalized image points; z: (P,) rough depths [m]
        z = z * torch.exp(0.1 * torch.tanh(self.depth_refine(torch.cat([s, z[:, None]], 1)).squeeze(-1)))
        e = (s - s_star).reshape(-1)
        v = torch.zeros(6)
        it = 0
        while e.norm() > self.tol and it < self.max_iter:
            lam = adaptive_gain(e.norm(), 0.3, 0.8)
            L = interaction_matrix(s, z)
            v = -lam * torch.linalg.pinv(L) @ e
            s = s + self.dt * (L @ v).reshape(-1, 2)
            # depth changes with the translational velocity along the optical axis
            z = (z - self.dt * v[2]).clamp(min=0.05)
            if (s[:, 0].abs() > self.fov).any() or (s[:, 1].abs() > self.fov).any():
                return s, v, torch.tensor(-1.0)          # feature lost: abort servoing
            e = (s - s_star).reshape(-1)
            it += 1
        converged = torch.tensor(1.0) if e.norm() <= self.tol else torch.tensor(0.0)
        return s, v, converged


def model():
    torch.manual_seed(3905)
    return VisualServo().eval()


def _make_scene(seed, p, shift, rot=0.0, scale=1.0, depth=1.0, spread=0.3):
    g = torch.Generator().manual_seed(seed)
    s_star = (torch.rand(p, 2, generator=g) - 0.5) * 2 * spread
    c, sn = torch.cos(torch.tensor(rot)), torch.sin(torch.tensor(rot))
    R = torch.stack([torch.stack([c, -sn]), torch.stack([sn, c])])
    s = scale * s_star @ R.T + torch.tensor(shift)
    z = depth + 0.1 * torch.rand(p, generator=g)
    return s, s_star, z


def example_inputs():
    # 6 points, small offset + rotation: converges with the near gain
    return _make_scene(1, 6, [0.08, -0.05], rot=0.1)


def dynamic_shapes():
    p = torch.export.Dim("points", min=4, max=32)
    return ({0: p}, {0: p}, {0: p})


def verify_inputs():
    ex = example_inputs()   # the example: path described in example_inputs()
    # large offset (error norm > 0.5): far gain first, then near gain; the residual error
    # plateaus above tol (depth mismatch) so the loop stops at max_iter, converged = 0
    far = _make_scene(2, 8, [0.3, 0.25], rot=0.2, scale=1.1)
    # desired pattern near the image border and pushed outwards: a feature leaves the view -> abort
    lost = _make_scene(3, 4, [-0.5, 0.1], rot=-0.3, scale=0.7, spread=0.9)
    # already at the goal (error 0 <= tol): the while loop runs zero times
    s, s_star, z = _make_scene(4, 5, [0.0, 0.0])
    at_goal = (s_star.clone(), s_star, z)
    # many points (20) with a small offset: converges after three iterations
    many = _make_scene(5, 20, [0.004, 0.002], spread=0.4)
    # error just above tol: exactly one iteration
    once = _make_scene(6, 10, [0.002, 0.00094], spread=0.4)
    return [ex, far, lost, at_goal, many, once]
