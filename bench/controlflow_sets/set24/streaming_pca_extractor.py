"""Top-k principal components by power iteration with deflation.

The covariance of a batch of feature vectors is computed, then k components
(k given as a tensor) are extracted one at a time: power iteration until the
direction stops changing (or an iteration cap), followed by deflation.  When
the remaining variance is negligible (rank-deficient data) extraction stops
early, so fewer than k components may be returned.
Returns (components [k', D], eigenvalues [k'], projected data [N, k']).
"""
import torch
import torch.nn as nn


class PowerIterationPCA(nn.Module):
    def __init__(self, dim=6, tol=0.01, max_iters=20, min_eig=0.01):
        super().__init__()
        self.tol = tol
        self.max_iters = max_iters
        self.min_eig = min_eig
        # fixed, deterministic start vectors
        g = torch.Generator().manual_seed(0)
        self.register_buffer("init", torch.nn.functional.normalize(torch.randn(dim, dim, generator=g), dim=1))

    def top_eigvec(self, C, v):
        change = torch.tensor(1.0)
        it = 0
        while change > self.tol and it < self.max_iters:
            w = C @ v
            w = w / w.norm().clamp(min=1e-12)
            change = (w - v).abs().max()
            v = w
            it += 1
        # sign convention (as in sklearn's svd_flip): largest entry positive
        if v[v.abs().argmax()] < 0:
            v = -v
        return v

    def forward(self, x, k):
        xc = x - x.mean(0, keepdim=True)
        C = xc.T @ xc / (x.shape[0] - 1)
        comps, eigs = [], []
        for c in range(int(k.item())):
            v = self.top_eigvec(C, self.init[c])
            lam = v @ C @ v
            if lam < self.min_eig:
                break                      # nothing left to explain
            comps.append(v)
            eigs.append(lam)
            C = C - lam * torch.outer(v, v)
        if not comps:
            return x.new_zeros(0, x.shape[1]), x.new_zeros(0), x.new_zeros(x.shape[0], 0)
        V = torch.stack(comps)
        return V, torch.stack(eigs), xc @ V.T


def model():
    return PowerIterationPCA().eval()


def _data(g, n, scales):
    # anisotropic gaussian with well separated variances along a rotated basis
    q, _ = torch.linalg.qr(torch.randn(6, 6, generator=g))
    z = torch.randn(n, 6, generator=g) * torch.tensor(scales)
    return z @ q.T


def example_inputs():
    g = torch.Generator().manual_seed(1)
    return (_data(g, 20, [3.0, 1.5, 0.8, 0.3, 0.1, 0.05]), torch.tensor(2))


def dynamic_shapes():
    return ({0: torch.export.Dim("n_samples", min=3, max=512)}, None)


def verify_inputs():
    g = torch.Generator().manual_seed(19)
    return [
        (_data(g, 30, [3.0, 1.0, 0.5, 0.2, 0.1, 0.05]), torch.tensor(0)),   # k = 0
        (_data(g, 40, [3.0, 1.0, 0.5, 0.2, 0.1, 0.05]), torch.tensor(1)),   # single component
        (_data(g, 60, [4.0, 2.0, 1.0, 0.2, 0.1, 0.05]), torch.tensor(3)),   # three components
        (_data(g, 25, [3.0, 0.0, 0.0, 0.0, 0.0, 0.0]), torch.tensor(3)),    # rank one: stops early
        (_data(g, 50, [2.0, 1.9, 0.5, 0.2, 0.1, 0.05]), torch.tensor(2)),   # small eigengap: iteration cap
    ]
