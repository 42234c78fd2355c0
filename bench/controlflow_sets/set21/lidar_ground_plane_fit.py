"""Robot-mower LiDAR ground segmentation: seeded plane fit refined until the inlier set is clean."""
import torch
from torch import nn
from torch.export import Dim


def fit_plane(pts, w):
    A = torch.stack([pts[:, 0], pts[:, 1], torch.ones_like(pts[:, 0])], 1)
    Aw = A * w.unsqueeze(1)
    M = A.t() @ Aw + 1e-3 * torch.eye(3)
    rhs = Aw.t() @ pts[:, 2]
    return torch.linalg.solve(M, rhs)


class PlaneRefiner(nn.Module):
    def __init__(self, tol=0.06, max_iter=6):
        super().__init__()
        self.tol = tol
        self.max_iter = max_iter

    def forward(self, pts, inl):
        A = torch.stack([pts[:, 0], pts[:, 1], torch.ones_like(pts[:, 0])], 1)
        coef = fit_plane(pts, inl.float())
        r = (pts[:, 2] - A @ coef).abs()
        worst = torch.where(inl, r, torch.zeros_like(r)).max()
        it = 0
        while worst > self.tol and it < self.max_iter:
            inl = inl & (r < 0.5 * worst)
            coef = fit_plane(pts, inl.float())
            r = (pts[:, 2] - A @ coef).abs()
            worst = torch.where(inl, r, torch.zeros_like(r)).max()
            it += 1
        return coef, r


class GroundSegmenter(nn.Module):
    def __init__(self, seed_band=0.3, ground_thr=0.1, max_points=256, refine=True):
        super().__init__()
        self.seed_band = seed_band
        self.ground_thr = ground_thr
        self.max_points = max_points
        self.refine = refine
        self.refiner = PlaneRefiner()
        self.obstacle_head = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))

    def forward(self, pts):
        if pts.shape[0] > self.max_points:
            pts = pts[::2]
        z = pts[:, 2]
        seed = z < z.min() + self.seed_band
        if self.refine:  # static
            coef, r = self.refiner(pts, seed)
        else:
            coef, r = fit_plane(pts, seed.float()), z.abs()
        ground = (r < self.ground_thr).float()
        h = torch.cat([pts, r.unsqueeze(1)], 1)
        obst = torch.sigmoid(self.obstacle_head(h)).squeeze(1) * (1.0 - ground)
        return ground, obst, coef


def model():
    torch.manual_seed(0)
    return GroundSegmenter().eval()


def _scene(n, n_low, n_high, seed, tilt=0.05):
    g = torch.Generator().manual_seed(seed)
    xy = torch.rand(n, 2, generator=g) * 8.0 - 4.0
    noise = (torch.rand(n, generator=g) - 0.5) * 0.02
    z = tilt * xy[:, 0] + 0.5 + noise
    k = torch.arange(n)
    z = torch.where(k % 7 == 3, z + 0.2, z) if n_low else z           # low clutter (grass tufts, curbs)
    z = torch.where(k % 11 == 5, z + 0.45, z) if n_high else z        # low shrubs / boxes
    z = torch.where(k % 13 == 6, z + 1.2, z)                          # tall obstacles, never seeded
    return torch.cat([xy, z.unsqueeze(1)], 1)


def example_inputs():
    return (_scene(120, 1, 0, 1),)


def verify_inputs():
    return [
        (_scene(60, 0, 0, 2),),      # clean ground: seed already clean, no refinement
        (_scene(400, 1, 1, 3),),     # dense scan -> subsampled, two clutter layers
        (_scene(200, 0, 1, 4, tilt=-0.03),),
    ]


def dynamic_shapes():
    return ({0: Dim("points", min=16, max=512)},)
