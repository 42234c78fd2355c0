"""Product star-rating aggregator.

Too few reviews: return the category prior blended with what there is.  Otherwise drop
outlier reviews (|z| >= 2), weight by helpfulness votes when some reviews were voted
helpful, and shrink the result toward the prior (Bayesian average).
"""
import torch
from torch import nn


class ReviewRatingAggregator(nn.Module):
    def __init__(self, min_reviews=5, prior=3.6, prior_weight=4.0, z_cut=2.0):
        super().__init__()
        self.min_reviews = min_reviews
        self.prior_weight = prior_weight
        self.z_cut = z_cut
        self.prior = nn.Parameter(torch.tensor(prior))
        self.winsorize = False

    def forward(self, stars, helpful):
        # stars: [N] in [1, 5], helpful: [N] fraction of "helpful" votes
        n = stars.shape[0]
        if n < self.min_reviews:
            score = (stars.sum() + self.prior * self.prior_weight) / (n + self.prior_weight)
            return score, torch.tensor(n)

        mu = stars.mean()
        sd = stars.std()
        z = (stars - mu) / (sd + 1e-6)
        keep = z.abs() < self.z_cut
        if not keep.all():
            stars = stars[keep]
            helpful = helpful[keep]
        if self.winsorize:
            stars = stars.clamp(mu - 2 * sd, mu + 2 * sd)

        voted = helpful > 0.5
        if voted.any():
            w = 1.0 + helpful
            score = (stars * w).sum() / w.sum()
        else:
            score = stars.mean()
        kept = stars.shape[0]
        score = (kept * score + self.prior_weight * self.prior) / (kept + self.prior_weight)
        return score, torch.tensor(kept)


def model():
    torch.manual_seed(0)
    return ReviewRatingAggregator().eval()


def _make(stars, helpful_frac, seed):
    g = torch.Generator().manual_seed(seed)
    s = torch.tensor(stars)
    low = 0.4 * torch.rand(len(stars), generator=g)
    high = 0.6 + 0.4 * torch.rand(len(stars), generator=g)
    h = torch.where(torch.rand(len(stars), generator=g) < helpful_frac, high, low)
    return s, h


def example_inputs():
    return _make([4.0, 4.5, 5.0, 3.5, 4.0, 1.0, 4.5, 4.0], 0.5, 0)


def dynamic_shapes():
    n = torch.export.Dim("reviews", min=2, max=256)
    return ({0: n}, {0: n})


def verify_inputs():
    return [
        _make([5.0, 4.0, 4.5], 0.5, 1),                                 # too few reviews
        _make([4.0, 4.2, 3.8, 4.1, 3.9, 4.3], 0.0, 2),                   # no outliers, no votes
        _make([4.5, 4.7, 4.8, 4.6, 4.9, 4.4, 4.6, 4.7, 1.0, 4.5], 0.6, 3),  # 1-star outlier, votes
        _make([2.0, 3.0, 4.0, 2.5, 3.5, 3.0, 2.0, 4.5, 1.5], 0.0, 4),    # spread, no outliers
        example_inputs(),
    ]
