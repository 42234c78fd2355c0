"""Feature whitening layer (ZCA) with a Newton-Schulz matrix inverse square root.

Used in front of a linear probe on embeddings: the covariance of the batch is
normalised by its trace (or, when that would not converge, by its Frobenius
norm) and Newton-Schulz iterations run until the residual ||I - Z Y|| falls
below tol, capped at max_iter.
"""
import torch
import torch.nn as nn
from torch.export import Dim


def newton_schulz_step(Y, Z, eye):
    T = 0.5 * (3.0 * eye - Z @ Y)
    return Y @ T, T @ Z


class NewtonSchulzWhitener(nn.Module):
    def __init__(self, dim=8, n_classes=3, center=True):
        super().__init__()
        self.center = center
        self.eps = 1e-3
        self.tol = 0.02
        self.max_iter = 8
        self.safe_radius = 0.9
        self.probe = nn.Linear(dim, n_classes)

    def inverse_sqrt(self, C):
        eye = torch.eye(C.shape[0])
        scale = C.diagonal().mean()
        A = C / scale
        err = torch.linalg.matrix_norm(eye - A)
        if err > self.safe_radius:
            # trace scaling may leave eigenvalues outside (0, 2): use the Frobenius norm
            scale = torch.linalg.matrix_norm(C)
            A = C / scale
        Y, Z = A, eye
        it = 0
        while err > self.tol:
            if it >= self.max_iter:
                break
            Y, Z = newton_schulz_step(Y, Z, eye)
            err = torch.linalg.matrix_norm(eye - Z @ Y)
            it += 1
        return Z / scale.sqrt(), torch.tensor(it)

    def forward(self, feats):
        if self.center:
            feats = feats - feats.mean(dim=0, keepdim=True)
        C = feats.T @ feats / feats.shape[0] + self.eps * torch.eye(feats.shape[1])
        W, n_iter = self.inverse_sqrt(C)
        white = feats @ W
        return self.probe(white), n_iter


def model():
    torch.manual_seed(0)
    return NewtonSchulzWhitener().eval()


def _make(seed, n, mix):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 8, generator=g)
    m = torch.eye(8) + mix * torch.randn(8, 8, generator=g)
    return (x @ m,)


def _make_white(seed, n, jitter=0.0):
    g = torch.Generator().manual_seed(seed)
    q, _ = torch.linalg.qr(torch.randn(n, 8, generator=g))
    q = q - q.mean(0, keepdim=True)
    q, _ = torch.linalg.qr(q)
    scale = 1.0 + jitter * torch.rand(8, generator=g)
    return (q * n ** 0.5 * 0.999 * scale,)


def _make_low_rank(seed, n):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 3, generator=g) @ torch.randn(3, 8, generator=g)
    return (x + 0.05 * torch.randn(n, 8, generator=g),)


def example_inputs():
    return _make(0, 32, 0.2)


def dynamic_shapes():
    return ({0: Dim("samples", min=4, max=256)},)


def verify_inputs():
    return [
        _make(1, 32, 0.2),     # mildly correlated: trace scaling, a few iterations
        _make_white(2, 64, 0.3),   # nearly white: trace scaling, few iterations
        _make_white(3, 48),        # already white: no iteration
        _make(4, 20, 1.0),     # strongly mixed: Frobenius scaling
        _make_low_rank(5, 40),      # nearly rank deficient: hits max_iter
    ]
