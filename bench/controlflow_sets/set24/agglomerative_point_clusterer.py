"""Greedy agglomerative clustering of embedded points (centroid linkage).

Points are embedded by a small MLP, then the two closest clusters are merged
repeatedly while more than `min_clusters` clusters remain and the closest
pair is nearer than `merge_dist`.  Cluster weights track how many points were
merged.  The number of output clusters depends on the data.
Returns (centroids [K, d], weights [K]).
"""
import torch
import torch.nn as nn


def closest_pair(c):
    """Indices (i, j), i < j, and distance of the closest pair of rows of c."""
    k = c.shape[0]
    d = ((c.unsqueeze(1) - c.unsqueeze(0)) ** 2).sum(-1)
    upper = torch.triu(torch.ones(k, k, dtype=torch.bool), diagonal=1)
    d = torch.where(upper, d, torch.full_like(d, 1e9))
    flat = torch.argmin(d)
    i = flat // k
    j = flat % k
    return i, j, d.min().sqrt()


class AgglomerativeClusterer(nn.Module):
    def __init__(self, d_in=4, d=3, merge_dist=0.8, min_clusters=2):
        super().__init__()
        self.embed = nn.Sequential(nn.Linear(d_in, 16), nn.Tanh(), nn.Linear(16, d))
        self.merge_dist = merge_dist
        self.min_clusters = min_clusters

    def forward(self, points):
        c = self.embed(points)
        w = torch.ones(c.shape[0])
        while c.shape[0] > self.min_clusters:
            i, j, dist = closest_pair(c)
            if dist > self.merge_dist:
                break
            merged = (c[i] * w[i] + c[j] * w[j]) / (w[i] + w[j])
            keep = torch.ones(c.shape[0], dtype=torch.bool)
            keep[i] = False
            keep[j] = False
            c = torch.cat([c[keep], merged.unsqueeze(0)], 0)
            w = torch.cat([w[keep], (w[i] + w[j]).unsqueeze(0)], 0)
        return c, w


def model():
    torch.manual_seed(0)
    m = AgglomerativeClusterer()
    with torch.no_grad():
        # "trained" as the encoder half of an autoencoder: roughly distance preserving
        m.embed[0].weight.mul_(0.6)
        m.embed[0].bias.zero_()
        m.embed[2].weight.copy_(torch.linalg.pinv(m.embed[0].weight)[:3])
        m.embed[2].bias.zero_()
    return m.eval()


def _blobs(g, centers, per, spread):
    centers = torch.tensor(centers, dtype=torch.float32)
    pts = centers.repeat_interleave(torch.as_tensor(per), 0)
    return pts + spread * torch.randn(pts.shape, generator=g)


def example_inputs():
    g = torch.Generator().manual_seed(0)
    return (_blobs(g, [[0, 0, 0, 0], [3, 3, 0, 0]], 3, 0.1),)


def dynamic_shapes():
    return ({0: torch.export.Dim("n_points", min=2, max=40)},)


def verify_inputs():
    g = torch.Generator().manual_seed(16)
    return [
        (_blobs(g, [[0, 0, 0, 0], [3, 0, 0, 3]], 1, 0.0),),                    # 2 points: nothing to do
        (_blobs(g, [[0, 0, 0, 0], [3, 0, 0, 0], [0, 3, 0, 0]], 1, 0.0),),      # 3 far apart points
        (_blobs(g, [[0, 0, 0, 0], [0, 0, 3, 0], [0, 3, 0, 0]], [2, 1, 1], 0.05),),  # one merge
        (_blobs(g, [[0, 0, 0, 0], [3, 3, 0, 0], [-3, 0, 3, 0]], [3, 2, 3], 0.2),),  # several merges
        (_blobs(g, [[0, 0, 0, 0]], 5, 0.2),),                                   # merged down to min
    ]
