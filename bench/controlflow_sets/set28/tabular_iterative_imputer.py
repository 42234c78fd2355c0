"""Tabular preprocessing: chained-equation (MICE-style) imputation of missing values with ridge regressions."""
import torch
import torch.nn as nn


class IterativeImputer(nn.Module):
    def __init__(self, n_features=5):
        super().__init__()
        self.n_features = n_features
        self.ridge = 1.0
        self.tol = 0.05
        self.max_iter = 6

    def fit_predict(self, x, j, missing_j):
        others = torch.cat([x[:, :j], x[:, j + 1:]], dim=1)
        design = torch.cat([others, torch.ones(x.shape[0], 1)], dim=1)
        observed = ~missing_j
        a = design[observed]
        y = x[:, j][observed]
        gram = a.T @ a + self.ridge * torch.eye(a.shape[1])
        w = torch.linalg.solve(gram, a.T @ y)
        return design @ w

    def forward(self, data, missing):
        # data [N, F] (values at missing positions are garbage), missing [N, F] bool
        observed = (~missing).float()
        col_mean = (data * observed).sum(0) / observed.sum(0).clamp(min=1.0)
        x = torch.where(missing, col_mean.expand_as(data), data)
        delta = torch.full((), 1e9)
        it = 0
        while missing.any() and delta > self.tol and it < self.max_iter:
            prev = x
            for j in range(self.n_features):
                if not missing[:, j].any():
                    continue
                pred = self.fit_predict(x, j, missing[:, j])
                x = torch.cat([x[:, :j], torch.where(missing[:, j], pred, x[:, j]).unsqueeze(1), x[:, j + 1:]], dim=1)
            delta = (x - prev).abs().max()
            it += 1
        return x, torch.tensor(it)


def model():
    return IterativeImputer().eval()


def _case(seed, n, missing_rate, cols=(0, 1, 2, 3, 4), coupling=0.6):
    g = torch.Generator().manual_seed(seed)
    z = torch.randn(n, 2, generator=g)
    mix = torch.randn(2, 5, generator=g)
    clean = coupling * (z @ mix) + (1 - coupling) * torch.randn(n, 5, generator=g)
    missing = torch.rand(n, 5, generator=g) < missing_rate
    keep = torch.ones(5, dtype=torch.bool)
    keep[list(cols)] = False
    missing[:, keep] = False
    missing[0] = False                      # at least one complete row
    data = torch.where(missing, torch.full_like(clean, 99.0), clean)
    return data, missing


def example_inputs():
    return _case(0, 20, 0.2)


def dynamic_shapes():
    n = torch.export.Dim("rows", min=2, max=512)
    return ({0: n}, {0: n})


def verify_inputs():
    return [
        _case(1, 30, 0.0),                          # nothing missing: no iteration
        _case(2, 40, 0.25),                         # converges below tol
        _case(3, 25, 0.3, cols=(1, 3)),             # columns without gaps are skipped
        _case(6, 20, 0.5, coupling=1.0),            # low-rank table: slow, hits max_iter
    ]
