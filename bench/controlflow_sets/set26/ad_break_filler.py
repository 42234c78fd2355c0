"""Filling a TV / streaming commercial break with contextually relevant ads.

Candidate ads are scored against the programme context by a learned bilinear scorer
and visited best first: the scan stops at the first ad below the relevance floor, ads
longer than the time left in the break are skipped (a shorter one may still fit), and
at most `max_ads` are placed.  The placed ads are summarised into one break embedding
(score-weighted attention) for the pacing model downstream; if nothing is relevant a
house promo embedding derived from the context is returned instead.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class AdBreakFiller(nn.Module):
    def __init__(self, dim=16, break_s=120, min_score=0.0, max_ads=3, tau=0.5):
        super().__init__()
        self.ctx_proj = nn.Linear(dim, dim)
        self.ad_proj = nn.Linear(dim, dim)
        self.fuse = nn.Linear(2 * dim, dim)
        self.promo = nn.Linear(dim, dim)
        self.break_s = break_s
        self.min_score = min_score
        self.max_ads = max_ads
        self.tau = tau

    def forward(self, context, ads, durations):
        c = F.normalize(self.ctx_proj(context), dim=0)
        a = F.normalize(self.ad_proj(ads), dim=1)
        scores = a @ c
        order = torch.argsort(scores, descending=True)
        placed = []
        used = 0
        for idx in order.tolist():
            if scores[idx] < self.min_score:
                break
            length = int(durations[idx])
            if used + length > self.break_s:
                continue
            placed.append(idx)
            used += length
            if len(placed) == self.max_ads:
                break
        if not placed:
            return torch.tanh(self.promo(context)), torch.zeros(0, dtype=torch.long)
        sel = torch.tensor(placed)
        w = torch.softmax(scores[sel] / self.tau, dim=0)
        summary = (w[:, None] * ads[sel]).sum(dim=0)
        return torch.tanh(self.fuse(torch.cat([context, summary]))), sel


def model():
    torch.manual_seed(0)
    return AdBreakFiller().eval()


def _case(g, m, rel, durations):
    """ads whose projected direction has the requested cosine with the context."""
    context = torch.randn(16, generator=g)
    with torch.no_grad():
        c = F.normalize(m.ctx_proj(context), dim=0)
        W, b = m.ad_proj.weight, m.ad_proj.bias
        rows = []
        for r in rel:
            noise = torch.randn(16, generator=g)
            noise = noise - (noise @ c) * c
            target = r * c + (1 - r * r) ** 0.5 * F.normalize(noise, dim=0)
            rows.append(torch.linalg.solve(W, 2.0 * target - b))
    return context, torch.stack(rows), torch.tensor(durations)


def example_inputs():
    g = torch.Generator().manual_seed(1)
    return _case(g, model(), [0.8, 0.3, -0.2, 0.6], [30, 15, 20, 45])


def dynamic_shapes():
    K = torch.export.Dim("candidate_ads", min=2, max=128)
    return (None, {0: K}, {0: K})


def verify_inputs():
    g = torch.Generator().manual_seed(2)
    m = model()
    return [
        _case(g, m, [-0.3, -0.6, -0.1], [15, 20, 30]),                 # nothing relevant -> promo
        _case(g, m, [0.9, 0.1, -0.5, -0.2], [30, 30, 30, 30]),         # two relevant, then the floor
        _case(g, m, [0.7, 0.5, 0.3, 0.2, 0.1], [100, 45, 15, 10, 10]), # too-long ads skipped, break fills
        _case(g, m, [0.8, 0.6, 0.4], [30, 30, 20]),                    # all relevant, cap reached
        _case(g, m, [0.5, 0.4], [150, 130]),                           # relevant but longer than the break
    ]
