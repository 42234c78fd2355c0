"""3-D scan encoder for archaeological pottery sherds (find registration).

Kind T.  Constructs: 1, 2, 8, 9.
A structured-light scan of one sherd (x, y, z in cm, reflectance) is centred,
decimated when dense, and encoded by a PointNet-style shared MLP
(nn.ModuleList) with max pooling for typology matching.  Crumbs smaller than
2 cm are not classified.  Also returns the sherd's extent and the spread of
its rim band (a cue for vessel diameter).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim

POINTS = Dim("points", min=16, max=8192)


class SharedMLP(nn.Module):
    def __init__(self, dims):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(a, b) for a, b in zip(dims[:-1], dims[1:])])

    def forward(self, x):
        for i, layer in enumerate(self.layers):
            x = layer(x)
            if i < len(self.layers) - 1:
                x = F.relu(x)
        return x


class SherdEncoder(nn.Module):
    def __init__(self, out_dim=32, center=True, use_reflectance=True, max_points=1024, min_extent_cm=2.0):
        super().__init__()
        self.center = center
        self.use_reflectance = use_reflectance
        self.max_points = max_points
        self.min_extent = min_extent_cm
        self.out_dim = out_dim
        self.mlp = SharedMLP([4 if use_reflectance else 3, 32, 64, out_dim])

    def forward(self, points):
        if points.shape[0] > self.max_points:
            points = points[::4]
        xyz = points[:, :3]
        if self.center:
            xyz = xyz - xyz.mean(dim=0)

        extent = (xyz.amax(dim=0) - xyz.amin(dim=0)).norm()
        if extent < self.min_extent:
            return torch.zeros(self.out_dim), extent, torch.zeros(())

        feats = torch.cat([xyz, points[:, 3:4]], dim=1) if self.use_reflectance else xyz
        emb = self.mlp(feats).max(dim=0).values
        top = xyz[:, 1].amax()
        rim = (xyz[:, 1] > top - 0.15 * extent).float()
        rim_spread = (xyz[:, 0].abs() * rim).amax()
        return emb, extent, rim_spread


def model():
    torch.manual_seed(63010)
    return SherdEncoder().eval()


def _sherd(n, radius_cm, height_cm, seed, thickness=0.6, arc=1.2):
    """Points on a piece of a cylindrical vessel wall (arc in radians)."""
    g = torch.Generator().manual_seed(seed)
    theta = (torch.rand(n, generator=g) - 0.5) * arc
    y = torch.rand(n, generator=g) * height_cm
    r = radius_cm + thickness * torch.rand(n, generator=g)
    xyz = torch.stack([r * torch.sin(theta), y, r * torch.cos(theta)], dim=1) + torch.tensor([12.0, -3.0, 40.0])
    refl = 0.4 + 0.2 * torch.rand(n, 1, generator=g)
    return (torch.cat([xyz, refl], dim=1),)


def example_inputs():
    return _sherd(600, 9.0, 6.0, 1)


def dynamic_shapes():
    return ({0: POINTS},)


def verify_inputs():
    return [
        example_inputs(),                      # palm-sized sherd: full path
        _sherd(150, 5.0, 0.8, 2, thickness=0.3, arc=0.2),   # 1 cm crumb: early return
        _sherd(5000, 15.0, 10.0, 3),           # dense scan: decimated by 4, then full path
        _sherd(16, 4.0, 3.0, 4),               # 16 points (Dim minimum), still classified
    ]
