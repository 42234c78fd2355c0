"""Online handwritten-signature verification for a banking tablet (kind T).

Inputs: the signed trajectory (T1, 3) = (x, y, pen pressure) and the enrolled reference
(T2, 3).  Trajectories are centred and scale-normalised, long ones are resampled to a
fixed number of points (helper), and a 1-D CNN (ModuleList) embeds them.  Too-short
signatures are rejected immediately; otherwise the cosine distance is mapped to
accept / manual review / reject.

constructs: 1 (if/elif/else on tensor), 2 (early return; same variable in every branch),
            7 (helper with control flow), 8 (branches on T1 / T2), 9 (ModuleList loop, config flag)
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def resample(points, n):
    if points.shape[0] <= n:
        return points
    return F.interpolate(points.t().unsqueeze(0), size=n, mode="linear", align_corners=True).squeeze(0).t()


class SignatureVerifier(nn.Module):
    def __init__(self, use_pressure=True, channels=(16, 32), max_points=128, min_points=16,
                 accept_dist=0.002, reject_dist=0.02):
        super().__init__()
        self.use_pressure = use_pressure
        chans = (3 if use_pressure else 2,) + tuple(channels)
        self.convs = nn.ModuleList(nn.Conv1d(a, b, 5, padding=2) for a, b in zip(chans[:-1], chans[1:]))
        self.proj = nn.Linear(2 * chans[-1], 32, bias=False)
        self.max_points = max_points
        self.min_points = min_points
        self.accept_dist = accept_dist
        self.reject_dist = reject_dist

    def embed(self, traj):
        xy = traj[:, :2] - traj[:, :2].mean(dim=0)
        xy = xy / (xy.abs().max() + 1e-6)
        feats = torch.cat([xy, traj[:, 2:3]], dim=1) if self.use_pressure else xy
        x = resample(feats, self.max_points).t().unsqueeze(0)
        for conv in self.convs:
            x = F.relu(conv(x))
        pooled = torch.cat([x.amax(dim=2), x.mean(dim=2)], dim=1)
        pooled = pooled - pooled.mean()
        return F.normalize(self.proj(pooled).squeeze(0), dim=0)

    def forward(self, query, reference):
        if query.shape[0] < self.min_points:
            return torch.tensor(0), torch.ones(())
        dist = 1.0 - (self.embed(query) * self.embed(reference)).sum()
        if dist < self.accept_dist:
            decision = torch.tensor(1)
        elif dist > self.reject_dist:
            decision = torch.tensor(0)
        else:
            decision = torch.tensor(2)       # send to a human reviewer
        return decision, dist


def model():
    torch.manual_seed(309)
    return SignatureVerifier().eval()


def _signature(n, style, seed, jitter=0.0):
    """A parametric 'signature': sum of loops; style picks the loop frequencies."""
    g = torch.Generator().manual_seed(seed)
    t = torch.linspace(0, 1, n)
    fx, fy, drift = style
    x = t * drift + 0.3 * torch.sin(2 * torch.pi * fx * t)
    y = 0.5 * torch.sin(2 * torch.pi * fy * t + 0.7)
    p = 0.5 + 0.3 * torch.sin(2 * torch.pi * 3 * t) ** 2
    s = torch.stack([x, y, p], dim=1)
    return s + jitter * torch.randn(n, 3, generator=g)


ALICE = (5.0, 2.0, 3.0)
MALLORY = (2.0, 6.0, 1.0)
SKILLED_FORGER = (4.0, 2.0, 2.0)   # similar loops, wrong rhythm


def example_inputs():
    return _signature(90, ALICE, 0, jitter=0.01), _signature(100, ALICE, 1)


def dynamic_shapes():
    return ({0: torch.export.Dim("query_pts", min=2, max=2048)},
            {0: torch.export.Dim("ref_pts", min=16, max=2048)})


def verify_inputs():
    return [
        example_inputs(),                                                     # genuine, both short (no resampling): accept
        (_signature(300, ALICE, 2, jitter=0.01), _signature(100, ALICE, 1)),  # genuine, long query resampled: accept
        (_signature(120, MALLORY, 3), _signature(400, ALICE, 4)),             # forgery, long reference resampled: reject
        (_signature(10, ALICE, 5), _signature(100, ALICE, 1)),                # too few points: early reject
        (_signature(110, SKILLED_FORGER, 6), _signature(400, ALICE, 4)),     # skilled forgery: distance in between -> manual review
        (_signature(16, MALLORY, 7), _signature(100, ALICE, 1)),              # exactly min_points: verified, rejected
    ]
