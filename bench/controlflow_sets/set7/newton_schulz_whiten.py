"""Feature whitening with Newton-Schulz iterations for the inverse square root of a covariance.

for over range(int(iters.item())), break when the residual < tol, and an if on a statistic
(regularise the covariance only when it is badly conditioned).
"""

import torch
from torch import nn

D = 8


class NSWhiten(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(D, D)
        self.eps = 1e-3

    def forward(self, x, iters, tol):
        h = self.proj(x)
        h = h - h.mean(dim=0, keepdim=True)
        cov = h.T @ h / h.shape[0]
        eye = torch.eye(D)
        if torch.diagonal(cov).min() < self.eps * torch.diagonal(cov).max():
            cov = cov + self.eps * torch.diagonal(cov).max() * eye
        norm = torch.linalg.matrix_norm(cov)
        y = cov / norm
        z = eye
        for _ in range(int(iters.item())):
            t = 0.5 * (3.0 * eye - z @ y)
            y = y @ t
            z = t @ z
            if (y @ y - cov / norm).abs().max() < tol:
                break
        return h @ (z / norm.sqrt())


def model():
    torch.manual_seed(0)
    return NSWhiten().eval()


def example_inputs():
    torch.manual_seed(1)
    return (torch.randn(32, D), torch.tensor(5), torch.tensor(1e-4))


def dynamic_shapes():
    return ({0: torch.export.Dim("rows", min=4, max=1024)}, None, None)


def verify_inputs():
    m = model()
    torch.manual_seed(12)
    # inputs that make one projected feature constant -> tiny variance -> regularise branch
    w = m.proj.weight.detach()
    x = torch.randn(40, D)
    h = x @ w.T
    h[:, 0] = 0.0
    degenerate = torch.linalg.solve(w, (h).T).T
    return [
        (torch.randn(32, D), torch.tensor(0), torch.tensor(1e-4)),  # zero iterations
        (torch.randn(64, D), torch.tensor(4), torch.tensor(0.0)),  # all 4 iterations, no break
        (torch.randn(16, D), torch.tensor(50), torch.tensor(1e-3)),  # converges: break
        (degenerate, torch.tensor(10), torch.tensor(1e-3)),  # ill-conditioned: regularised
    ]
