"""API-gateway admission control: a learned cost model prices each request,
a token bucket refills with elapsed time, premium requests always pass,
partially affordable requests are served in degraded mode, and a run of
rejections trips a circuit breaker that sheds the rest of the window."""
import torch
import torch.nn as nn

ACCEPT, DEGRADED, REJECT, SHED = 0, 1, 2, 3


class RequestCostModel(nn.Module):
    def __init__(self, feat=4, hidden=8):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(feat, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, feats):
        return 0.5 + 2.0 * torch.sigmoid(self.mlp(feats)).squeeze(-1)


class TokenBucketRateLimiter(nn.Module):
    def __init__(self, capacity=4.0, rate=1.0, degrade_frac=0.5, trip_after=3):
        super().__init__()
        self.cost_model = RequestCostModel()
        self.capacity = capacity
        self.rate = rate
        self.degrade_frac = degrade_frac
        self.trip_after = trip_after

    def forward(self, timestamps, feats, premium):
        cost = self.cost_model(feats)
        n = timestamps.shape[0]
        tokens = torch.full((), self.capacity)
        last_t = timestamps[0]
        rejects = torch.zeros((), dtype=torch.long)
        decisions = []
        for i in range(n):
            tokens = (tokens + (timestamps[i] - last_t) * self.rate).clamp(max=self.capacity)
            last_t = timestamps[i]
            if premium[i] or tokens >= cost[i]:
                tokens = (tokens - cost[i]).clamp(min=0.0)
                decisions.append(torch.tensor(ACCEPT))
                rejects = torch.zeros_like(rejects)
            elif tokens >= self.degrade_frac * cost[i]:
                tokens = tokens - self.degrade_frac * cost[i]
                decisions.append(torch.tensor(DEGRADED))
                rejects = torch.zeros_like(rejects)
            else:
                decisions.append(torch.tensor(REJECT))
                rejects = rejects + 1
                if rejects >= self.trip_after:
                    break
        out = torch.stack(decisions)
        shed = torch.full((n - out.shape[0],), SHED, dtype=torch.long)
        return torch.cat([out, shed]), tokens


def model():
    torch.manual_seed(0)
    return TokenBucketRateLimiter().eval()


def _traffic(n, mean_gap, seed, premium_every=0):
    g = torch.Generator().manual_seed(seed)
    gaps = torch.randint(0, 4, (n,), generator=g).float() * mean_gap
    ts = torch.cumsum(gaps, 0)
    feats = torch.randn(n, 4, generator=g)
    premium = torch.zeros(n, dtype=torch.bool)
    if premium_every:
        premium[::premium_every] = True
    return ts, feats, premium


def example_inputs():
    return _traffic(10, 0.5, 0, premium_every=4)


def dynamic_shapes():
    n = torch.export.Dim("requests", min=2, max=512)
    return ({0: n}, {0: n}, {0: n})


def verify_inputs():
    return [
        _traffic(16, 0.1, 1),
        _traffic(5, 2.0, 2),
        _traffic(12, 0.25, 3, premium_every=3),
    ]
