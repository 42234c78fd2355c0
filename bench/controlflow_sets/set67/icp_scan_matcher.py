"""2-D lidar localisation: point-to-point ICP of a scan against the floor-plan map.

Starting from the odometry pose, each iteration matches every scan point to
its nearest map point, drops matches farther than 1 m, solves the rigid
transform in closed form and re-projects the scan, until the mean residual
stops improving or the iteration budget is spent. If too few matches survive
the matcher gives up (lost). Scans with very few returns (fogged / blocked
lidar) keep the odometry pose. A small head predicts the pose variance from
the final residual, inlier ratio and iteration count.

Constructs: 1, 2, 3, 4, 6, 7, 8
"""
import torch
import torch.nn as nn
from torch.export import Dim


def rot(th):
    c, s = torch.cos(th), torch.sin(th)
    return torch.stack([torch.stack([c, -s]), torch.stack([s, c])])


class ICPScanMatcher(nn.Module):
    def __init__(self):
        super().__init__()
        self.min_points = 8
        self.max_iter = 8
        self.tol = 1e-3
        self.max_corr = 1.0
        self.var_head = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 3))

    def fit_rigid(self, src, dst):
        mu_s, mu_d = src.mean(0), dst.mean(0)
        a, b = src - mu_s, dst - mu_d
        s_cos = (a * b).sum()
        s_sin = (a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0]).sum()
        th = torch.atan2(s_sin, s_cos)
        R = rot(th)
        return R, mu_d - R @ mu_s, th

    def forward(self, scan, map_pts, init_pose):
        if scan.shape[0] < self.min_points:
            return init_pose, torch.full((3,), 10.0)

        pose = init_pose
        cur = scan @ rot(pose[2]).T + pose[:2]
        err = torch.tensor(1e3)
        prev_err = torch.tensor(1e6)
        inlier_ratio = torch.zeros(())
        it = 0
        while (prev_err - err).abs() > self.tol and it < self.max_iter:
            d, j = torch.cdist(cur, map_pts).min(dim=1)
            gate = d < self.max_corr
            inlier_ratio = gate.float().mean()
            if gate.sum() < 3:
                break  # lost: the map does not explain the scan
            R, t, th = self.fit_rigid(cur[gate], map_pts[j[gate]])
            cur = cur @ R.T + t
            pose = torch.cat([R @ pose[:2] + t, (pose[2] + th).view(1)])
            prev_err = err
            err = d[gate].mean()
            it += 1

        stats = torch.stack([err.clamp(max=10.0), inlier_ratio, torch.tensor(it / self.max_iter)])
        return pose, self.var_head(stats).exp()


def model():
    torch.manual_seed(67)
    return ICPScanMatcher().eval()


def _room(n_per_wall, g):
    s = (torch.arange(n_per_wall) + 0.5 + 0.4 * (torch.rand(n_per_wall, generator=g) - 0.5)) / n_per_wall
    w, h = 10.0, 6.0
    pts = [torch.stack([s * w, torch.zeros_like(s)], 1), torch.stack([torch.full_like(s, w), s * h], 1),
           torch.stack([w - s * w, torch.full_like(s, h)], 1), torch.stack([torch.zeros_like(s), h - s * h], 1),
           torch.stack([3.0 + s * 2.0, torch.full_like(s, 2.5)], 1)]  # a shelf in the room
    return torch.cat(pts)


def _case(n_scan, true_pose, init_pose, seed, n_per_wall=40):
    g = torch.Generator().manual_seed(seed)
    world = _room(n_per_wall, g)
    sel = torch.randperm(world.shape[0], generator=g)[:n_scan]
    pts_w = world[sel] + 0.01 * torch.randn(n_scan, 2, generator=g)
    tp = torch.tensor(true_pose)
    scan = (pts_w - tp[:2]) @ rot(tp[2])   # world -> robot frame
    return scan, world, torch.tensor(init_pose)


def example_inputs():
    return _case(30, [5.0, 2.5, -0.4], [5.2, 2.6, -0.3], 6)  # converges after 5 passes (residual stops improving)


def dynamic_shapes():
    return ({0: Dim("scan_points", min=4, max=256)}, {0: Dim("map_points", min=8, max=512)}, None)


def verify_inputs():
    return [
        example_inputs(),                                      # normal convergence: loop ends on the residual test
        _case(5, [4.0, 3.0, 0.0], [4.0, 3.0, 0.0], 2, n_per_wall=10),          # 5 returns < 8: early return
        _case(40, [5.0, 3.0, 0.0], [25.0, 20.0, 0.0], 3, n_per_wall=30),       # odometry far off: < 3 matches, break on first pass
        _case(20, [4.0, 3.0, 0.3], [4.3, 2.8, 0.2], 9, n_per_wall=60),         # slow convergence: the 8-pass budget runs out
    ]
