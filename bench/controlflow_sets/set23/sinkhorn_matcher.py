"""Keypoint-descriptor matcher with entropic optimal transport: learned
projection, cosine affinities, Sinkhorn normalisation until the column
marginals are within tolerance, then mutual-best matches above a confidence."""
import torch
import torch.nn as nn
import torch.nn.functional as F

MAX_ITERS = 100


class SinkhornMatcher(nn.Module):
    def __init__(self, dim=8, proj=8, tol=0.05, temperature=0.1, match_thr=0.3):
        super().__init__()
        self.proj = nn.Linear(dim, proj)
        self.tol = tol
        self.temperature = temperature
        self.match_thr = match_thr

    def marginal_error(self, log_p):
        return (log_p.logsumexp(0).exp() - 1).abs().amax()

    def forward(self, desc_a, desc_b):
        a = F.normalize(self.proj(desc_a), dim=-1)
        b = F.normalize(self.proj(desc_b), dim=-1)
        log_p = a @ b.T / self.temperature
        log_p = log_p - log_p.logsumexp(1, keepdim=True)
        err = self.marginal_error(log_p)
        it = 0
        while err > self.tol and it < MAX_ITERS:
            log_p = log_p - log_p.logsumexp(0, keepdim=True)
            log_p = log_p - log_p.logsumexp(1, keepdim=True)
            err = self.marginal_error(log_p)
            it += 1
        p = log_p.exp()
        row_best = p.argmax(1)
        col_best = p.argmax(0)
        mutual = col_best[row_best] == torch.arange(p.shape[0])
        conf = p.gather(1, row_best.unsqueeze(1)).squeeze(1)
        matches = torch.where(mutual & (conf > self.match_thr), row_best, torch.full_like(row_best, -1))
        return matches, torch.tensor(it), p


def model():
    torch.manual_seed(0)
    return SinkhornMatcher().eval()


def _pair(n, noise, seed, outlier=False):
    g = torch.Generator().manual_seed(seed)
    a = torch.randn(n, 8, generator=g)
    perm = torch.randperm(n, generator=g)
    b = a[perm] + noise * torch.randn(n, 8, generator=g)
    if outlier:
        b[0] = torch.randn(8, generator=g) * 2.0
    return a, b


def example_inputs():
    return _pair(7, 0.8, 2, outlier=True)


def dynamic_shapes():
    n = torch.export.Dim("keypoints", min=2, max=256)
    return ({0: n}, {0: n})


def verify_inputs():
    return [_pair(3, 0.0, 1), _pair(4, 0.3, 5), _pair(5, 0.4, 8)]
