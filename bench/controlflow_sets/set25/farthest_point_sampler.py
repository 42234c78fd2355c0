"""Farthest point sampling front-end of a point-cloud classifier (PointNet++ style).

Small clouds are used as they are; larger clouds are reduced to n_samples points
by farthest point sampling, stopping early once every point is within
min_spacing of a sample (heavily clustered scans).  The sampled points are
encoded by a shared MLP and max-pooled into class logits.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class FPSClassifier(nn.Module):
    def __init__(self, n_samples=12, n_classes=5, start_from_centroid=True):
        super().__init__()
        self.n_samples = n_samples
        self.start_from_centroid = start_from_centroid
        self.min_spacing = 0.3
        self.encoder = nn.Sequential(nn.Linear(3, 32), nn.ReLU(), nn.Linear(32, 32))
        self.head = nn.Linear(32, n_classes)

    def sample(self, points):
        if self.start_from_centroid:
            first = ((points - points.mean(0)) ** 2).sum(1).argmax()
        else:
            first = torch.zeros((), dtype=torch.long)
        picked = [first]
        min_dist = ((points - points[first]) ** 2).sum(1)
        for _ in range(self.n_samples - 1):
            if min_dist.max() < self.min_spacing ** 2:
                break  # everything is already covered
            nxt = min_dist.argmax()
            picked.append(nxt)
            min_dist = torch.minimum(min_dist, ((points - points[nxt]) ** 2).sum(1))
        return torch.stack(picked)

    def forward(self, points):
        if points.shape[0] <= self.n_samples:
            sampled = points
        else:
            sampled = points[self.sample(points)]
        feats = self.encoder(sampled).amax(dim=0)
        return self.head(feats), sampled


def model():
    torch.manual_seed(0)
    return FPSClassifier().eval()


def _make(seed, n, n_clusters=0, spread=0.05):
    g = torch.Generator().manual_seed(seed)
    if n_clusters == 0:
        return (torch.randn(n, 3, generator=g) * 2.0,)
    centers = torch.randn(n_clusters, 3, generator=g) * 3.0
    idx = torch.arange(n) % n_clusters
    return (centers[idx] + spread * torch.randn(n, 3, generator=g),)


def example_inputs():
    return _make(1, 40)


def dynamic_shapes():
    return ({0: Dim("points", min=4, max=512)},)


def verify_inputs():
    return [
        _make(0, 64),                                # full FPS
        _make(2, 9),                                 # small cloud, used as is
        _make(1, 30, n_clusters=1),                  # one tight blob: stops right away
        _make(0, 50, n_clusters=2),                  # two blobs: stops after the second sample
        _make(1, 80, n_clusters=5),                  # five blobs
        _make(3, 24, n_clusters=3, spread=0.02),     # three blobs
        _make(6, 12),                                # exactly n_samples points
    ]
