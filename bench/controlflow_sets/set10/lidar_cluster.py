"""Lidar obstacle clustering on an edge computer: ground removal, Euclidean
connected components by label propagation until stable, then one axis-aligned box
per cluster with enough points (small clusters are treated as noise)."""
import torch
from torch import nn


class LidarClusterer(nn.Module):
    def __init__(self):
        super().__init__()
        self.ground_z = -1.5
        self.eps = 0.8
        self.min_pts = 3
        # learned per-axis scaling of the metric (e.g. squash z)
        self.axis_scale = nn.Parameter(torch.tensor([1.0, 1.0, 0.5]))

    def propagate(self, adj, n):
        labels = torch.arange(n)
        big = torch.full((n, n), n, dtype=torch.long)
        changed = torch.tensor(True)
        it = 0
        while changed and it < n:
            new = torch.where(adj, labels.unsqueeze(0).expand(n, n), big).min(dim=1).values
            new = torch.minimum(new, labels)
            changed = (new != labels).any()
            labels = new
            it += 1
        return labels

    def forward(self, points):
        # points: (N, 3)
        keep = points[:, 2] > self.ground_z
        pts = points[keep]
        n = pts.shape[0]
        if n == 0:
            return torch.zeros(0, 6), torch.zeros(0, dtype=torch.long)
        scaled = pts * self.axis_scale
        adj = torch.cdist(scaled, scaled) < self.eps
        labels = self.propagate(adj, n)
        roots = (labels == torch.arange(n)).nonzero().flatten()
        n_clusters = int(roots.shape[0])
        boxes, sizes = [], []
        for k in range(n_clusters):
            member = labels == roots[k]
            count = member.sum()
            if count < self.min_pts:
                continue
            cp = pts[member]
            boxes.append(torch.cat([cp.min(dim=0).values, cp.max(dim=0).values]))
            sizes.append(count)
        if not boxes:
            return torch.zeros(0, 6), torch.zeros(0, dtype=torch.long)
        return torch.stack(boxes), torch.stack(sizes)


def model():
    torch.manual_seed(0)
    return LidarClusterer().eval()


def _blob(center, n, seed, spread=0.2):
    g = torch.Generator().manual_seed(seed)
    return torch.tensor(center) + spread * torch.randn(n, 3, generator=g)


def example_inputs():
    pts = torch.cat([_blob([5.0, 0.0, 0.0], 12, 1), _blob([0.0, 8.0, 0.5], 8, 2),
                     _blob([-6.0, -6.0, 0.0], 2, 3), _blob([0.0, 0.0, -2.0], 10, 4)])
    return (pts,)


def dynamic_shapes():
    return ({0: torch.export.Dim("N", min=4, max=512)},)


def verify_inputs():
    return [
        (_blob([0.0, 0.0, -2.5], 6, 5, 0.1),),                                        # all ground
        (torch.cat([_blob([3.0, 3.0, 0.0], 2, 6), _blob([-9.0, 2.0, 0.0], 2, 7)]),),  # only noise clusters
        (torch.cat([torch.linspace(0, 6, 16).unsqueeze(1) * torch.tensor([[1.0, 0.0, 0.0]]),
                    _blob([0.0, 5.0, 0.0], 5, 8)]),),                                 # a chain: many propagation rounds
    ]
