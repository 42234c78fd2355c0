"""Loan default early-warning scorer with missing values (bank batch-scoring service).

Each applicant row has 16 features and an "observed" mask. Missing values are imputed with the
training means, each feature group gets its own encoder (ModuleList), and the batch is scored by
the main head, or by a conservative fallback head when most of the batch is missing. A batch with
nothing observed returns the prior.
Typical: static config flag, loop over a ModuleList, early return on .any(), if/else on a batch
reduction, ternary, dynamic batch.
"""
import torch
from torch import nn

GROUPS = [(0, 4), (4, 8), (8, 12), (12, 16)]   # income, credit history, payments, behaviour


class LoanEarlyWarning(nn.Module):
    def __init__(self, use_missing_indicators: bool = True):
        super().__init__()
        self.use_missing_indicators = use_missing_indicators
        self.register_buffer("means", torch.linspace(-0.5, 0.5, 16))
        self.encoders = nn.ModuleList(nn.Sequential(nn.Linear(4, 8), nn.ReLU()) for _ in GROUPS)
        self.head = nn.Linear(32 + 16, 1)
        self.fallback = nn.Linear(16, 1)
        self.prior_logit = -2.0

    def forward(self, x, observed):
        # x: (B, 16) standardised features; observed: (B, 16) bool
        if not observed.any():
            return torch.sigmoid(torch.full((x.shape[0],), self.prior_logit)), torch.zeros(x.shape[0], dtype=torch.bool)
        x = torch.where(observed, x, self.means)
        parts = []
        for (lo, hi), enc in zip(GROUPS, self.encoders):
            parts.append(enc(x[:, lo:hi]))
        h = torch.cat(parts, dim=1)
        if self.use_missing_indicators:  # static
            h = torch.cat([h, observed.float()], dim=1)
        else:
            h = torch.cat([h, torch.zeros_like(x)], dim=1)
        miss_frac = 1.0 - observed.float().mean()
        if miss_frac > 0.5:
            logit = self.fallback(x)[:, 0] - 0.5
        else:
            logit = self.head(h)[:, 0]
        risk = torch.sigmoid(logit)
        # stricter alert threshold when the data is incomplete
        thr = 0.6 if miss_frac > 0.2 else 0.8
        return risk, risk > thr


def model():
    torch.manual_seed(12)
    return LoanEarlyWarning().eval()


def _batch(b, miss, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(b, 16, generator=g)
    obs = torch.rand(b, 16, generator=g) >= miss
    return x, obs


def example_inputs():
    return _batch(8, 0.1, 0)


def dynamic_shapes():
    b = torch.export.Dim("batch", min=2, max=1024)
    return ({0: b}, {0: b})


def verify_inputs():
    return [
        _batch(5, 0.8, 1),                                          # mostly missing -> fallback head
        (torch.randn(3, 16), torch.zeros(3, 16, dtype=torch.bool)),  # nothing observed -> prior
        _batch(32, 0.35, 2),                                        # partially missing
    ]
