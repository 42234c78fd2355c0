"""Monthly churn-propensity scoring for telecom subscribers (tabular MLP).

Kind T. Constructs: 1, 2, 5, 7, 8, 9.
Rows are subscribers, columns are 12 usage/billing features (column 0 is
tenure in months).  Subscribers in their first months behave differently,
so when the batch contains any, a separate cold-start head is evaluated
and blended in for those rows.  The residual MLP is run in chunks for
large scoring batches to bound memory, exactly as the nightly batch job
does.
"""
import torch
import torch.nn as nn


class ResidualBlock(nn.Module):
    def __init__(self, dim, p=0.1):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.fc1 = nn.Linear(dim, 2 * dim)
        self.fc2 = nn.Linear(2 * dim, dim)
        self.drop = nn.Dropout(p)

    def forward(self, x):
        return x + self.drop(self.fc2(torch.relu(self.fc1(self.norm(x)))))


class ChurnScorer(nn.Module):
    def __init__(self, n_features=12, hidden=32, n_blocks=3, chunk_size=256, use_log1p=True):
        super().__init__()
        self.chunk_size = chunk_size
        self.use_log1p = use_log1p
        self.new_months = 3.0
        self.inp = nn.Linear(n_features, hidden)
        self.blocks = nn.ModuleList([ResidualBlock(hidden) for _ in range(n_blocks)])
        self.head = nn.Linear(hidden, 1)
        self.cold_start = nn.Sequential(nn.Linear(n_features, 16), nn.ReLU(), nn.Linear(16, 1))

    def score(self, x):
        h = self.inp(x)
        for blk in self.blocks:
            h = blk(h)
        return torch.sigmoid(self.head(h)).squeeze(-1)

    def score_batched(self, x):
        if x.shape[0] > self.chunk_size:
            parts = []
            for start in range(0, x.shape[0], self.chunk_size):
                parts.append(self.score(x[start:start + self.chunk_size]))
            return torch.cat(parts)
        return self.score(x)

    def forward(self, features):
        x = features
        if self.use_log1p:
            x = torch.log1p(x.clamp(min=0.0))  # heavy-tailed usage counts
        is_new = features[:, 0] < self.new_months
        if is_new.any():
            cold = torch.sigmoid(self.cold_start(x)).squeeze(-1)
            return torch.where(is_new, cold, self.score_batched(x))
        return self.score_batched(x)


def model():
    torch.manual_seed(3210)
    return ChurnScorer().eval()


def _batch(seed, n, n_new=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.rand(n, 12, generator=g) * torch.linspace(1.0, 12.0, 12)
    x[:, 0] = 6.0 + 60.0 * torch.rand(n, generator=g)  # tenure, months
    x[:n_new, 0] = torch.arange(n_new, dtype=torch.float32) % 3 + 0.5
    return (x,)


def example_inputs():
    return _batch(1, 64)


def dynamic_shapes():
    return ({0: torch.export.Dim("subscribers", min=2, max=4096)},)


def verify_inputs():
    return [
        example_inputs(),          # established subscribers only, single pass
        _batch(2, 40, 5),          # some new subscribers -> cold-start head blended, single pass
        _batch(3, 600, 30),        # new subscribers and chunked (3 chunks, last one partial)
        _batch(4, 512),            # exactly two full chunks
        _batch(5, 257),            # one element over the chunk size -> 2 chunks
        _batch(6, 2),              # minimum batch
    ]
