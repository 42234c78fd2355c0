"""Robust lane-marking line fit: deterministic RANSAC over a supplied
hypothesis schedule (point pairs), early stop once enough points agree, then
a confidence-weighted total-least-squares refit on the inliers (closed form)."""
import torch
import torch.nn as nn


def weighted_tls(points, w):
    wsum = w.sum()
    mean = (points * w.unsqueeze(1)).sum(0) / wsum
    c = points - mean
    sxx = (w * c[:, 0] * c[:, 0]).sum()
    syy = (w * c[:, 1] * c[:, 1]).sum()
    sxy = (w * c[:, 0] * c[:, 1]).sum()
    theta = 0.5 * torch.atan2(2 * sxy, sxx - syy)
    normal = torch.stack([-torch.sin(theta), torch.cos(theta)])
    return torch.cat([normal, -(normal @ mean).view(1)])


class RansacLineFitter(nn.Module):
    def __init__(self, inlier_thr=0.5, stop_num=4, stop_den=5, min_sep=0.01):
        super().__init__()
        self.confidence = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1))
        self.inlier_thr = inlier_thr
        self.stop_num, self.stop_den = stop_num, stop_den
        self.min_sep = min_sep

    def forward(self, points, pairs, n_hyp):
        n = points.shape[0]
        best_count = torch.tensor(-1)
        best_mask = torch.zeros(n, dtype=torch.bool)
        for h in range(min(int(n_hyp.item()), pairs.shape[0])):
            p, q = points[pairs[h, 0]], points[pairs[h, 1]]
            d = q - p
            length = d.norm()
            if length < self.min_sep:
                continue
            normal = torch.stack([-d[1], d[0]]) / length
            resid = (points @ normal - normal @ p).abs()
            inliers = resid < self.inlier_thr
            count = inliers.sum()
            if count > best_count:
                best_count = count
                best_mask = inliers
            if count * self.stop_den >= n * self.stop_num:
                break
        w = torch.sigmoid(self.confidence(points)).squeeze(-1)
        if best_count < 2:
            return weighted_tls(points, w), torch.tensor(0), best_mask.long()
        return weighted_tls(points, w * best_mask), best_count, best_mask.long()


def model():
    torch.manual_seed(0)
    return RansacLineFitter().eval()


def _scene(n_in, n_out, seed, n_hyp, dup_first=False):
    g = torch.Generator().manual_seed(seed)
    x = torch.linspace(-4, 4, n_in)
    inl = torch.stack([x, 0.5 * x + 1.0], 1) + 0.1 * torch.randn(n_in, 2, generator=g)
    out = (torch.rand(n_out, 2, generator=g) - 0.5) * 16.0
    pts = torch.cat([inl, out])[torch.randperm(n_in + n_out, generator=g)]
    pairs = torch.randint(0, n_in + n_out, (6, 2), generator=g)
    if dup_first:
        pairs[0, 1] = pairs[0, 0]
    return pts, pairs, torch.tensor(n_hyp)


def example_inputs():
    return _scene(7, 3, 0, 6)


def dynamic_shapes():
    return ({0: torch.export.Dim("points", min=2, max=512)}, None, None)


def verify_inputs():
    return [
        _scene(9, 1, 1, 6, dup_first=True),
        _scene(4, 4, 2, 0),
        _scene(5, 6, 3, 2),
    ]
