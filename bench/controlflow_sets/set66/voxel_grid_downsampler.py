"""Depth-camera point-cloud voxel downsampler (RGB-D mapping front end).

Points are binned into a voxel grid; when the frame would produce more occupied voxels than
the mapping back end accepts, the voxel edge is doubled until it fits. Each voxel is replaced
by the centroid of its points and their mean (colour-corrected) colour. A small statistical
outlier filter (its own module) drops voxels supported by too few points, unless that
would drop everything. Very large frames are decimated first.

Kind: X.  Constructs: 1, 2, 3, 4, 7, 8.
"""
import torch
import torch.nn as nn
from torch.export import Dim


def voxel_keys(points, voxel):
    idx = torch.floor(points / voxel).long()
    idx = idx - idx.min(dim=0).values
    dims = idx.max(dim=0).values + 1
    return (idx[:, 0] * dims[1] + idx[:, 1]) * dims[2] + idx[:, 2]


def count_occupied(keys):
    s = torch.sort(keys).values
    return (s[1:] != s[:-1]).sum() + 1


class SparseVoxelFilter(nn.Module):
    def __init__(self, min_points=2):
        super().__init__()
        self.min_points = min_points

    def forward(self, counts):
        keep = counts >= self.min_points
        if not keep.any():
            # everything is sparse (far-away surface): keep all voxels
            keep = torch.ones_like(keep)
        return keep


class VoxelDownsampler(nn.Module):
    def __init__(self, voxel=0.05, max_voxels=64, max_points=2048):
        super().__init__()
        self.voxel = voxel
        self.max_voxels = max_voxels
        self.max_points = max_points
        self.color_fix = nn.Linear(3, 3)
        self.outliers = SparseVoxelFilter()

    def forward(self, points, colors):
        # points: (N, 3) metres in the camera frame, colors: (N, 3) RGB 0..1
        if points.shape[0] > self.max_points:
            points = points[::2]
            colors = colors[::2]
        colors = colors + 0.1 * torch.tanh(self.color_fix(colors))
        voxel = torch.tensor(self.voxel)
        keys = voxel_keys(points, voxel)
        while count_occupied(keys) > self.max_voxels:
            voxel = voxel * 2
            keys = voxel_keys(points, voxel)
        uniq, inverse, counts = torch.unique(keys, return_inverse=True, return_counts=True)
        m = uniq.shape[0]
        centroids = torch.zeros(m, 3).index_add_(0, inverse, points) / counts[:, None]
        mean_rgb = torch.zeros(m, 3).index_add_(0, inverse, colors) / counts[:, None]
        keep = self.outliers(counts)
        return centroids[keep], mean_rgb[keep], voxel


def model():
    torch.manual_seed(16)
    return VoxelDownsampler().eval()


def _cloud(n, cells, seed, spread=(1, 1, 1)):
    """n points inside a box of `cells` 5 cm cells, kept >= 1 cm away from every cell border."""
    g = torch.Generator().manual_seed(seed)
    k = torch.stack([torch.randint(0, cells * s, (n,), generator=g) for s in spread], dim=-1)
    jitter = 0.015 * (2 * torch.rand(n, 3, generator=g) - 1)
    pts = 0.05 * k.float() + 0.025 + jitter + torch.tensor([-0.4, -0.3, 0.8])
    rgb = torch.rand(n, 3, generator=g)
    return pts, rgb


def example_inputs():
    return _cloud(300, 12, 0)


def dynamic_shapes():
    n = Dim("points", min=2, max=8192)
    return ({0: n}, {0: n})


def verify_inputs():
    return [
        # 300 points in a 60 cm cube: voxel doubled a few times (while runs many)
        example_inputs(),
        # small dense cluster: fits at 5 cm (while runs 0 times), sparse voxels dropped
        _cloud(40, 3, 1),
        # huge frame: decimated first, then voxel doubled once or more
        _cloud(2500, 6, 2),
        # a few far-away points, every voxel has one point: filter keeps everything
        _cloud(6, 40, 3),
        # wide flat wall: many doublings
        _cloud(500, 60, 4, spread=(4, 4, 1)),
    ]
