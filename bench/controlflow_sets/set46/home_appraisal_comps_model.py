"""T: residential appraisal from comparable sales ("comps").

subject (8,) features of the house being valued, comps (N, 8) recent nearby sales,
comp_prices (N,) their sale prices in $100k. Returns (estimated price (1,), comp weights (N,)).
Features: [sqft/1000, beds, baths, age/50, lot/10k sqft, garage, dist_km, months_ago/12].
Constructs: 1, 2, 8, 9
"""
import torch
import torch.nn as nn


class AppraisalModel(nn.Module):
    def __init__(self, luxury_sqft=4.0, min_comps=3):
        super().__init__()
        self.luxury_sqft = luxury_sqft
        self.min_comps = min_comps
        # one adjustment head per market segment: [standard, luxury]
        self.segment_heads = nn.ModuleList([nn.Linear(8, 1) for _ in range(2)])
        self.base = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
        self.sim_scale = nn.Parameter(torch.ones(8))

    def forward(self, subject, comps, comp_prices):
        base_price = 3.0 + torch.nn.functional.softplus(self.base(subject))
        # thin market: fall back to the hedonic model alone
        if comps.shape[0] < self.min_comps:
            return base_price, torch.zeros(comps.shape[0])
        d = ((comps - subject) * self.sim_scale).pow(2).sum(-1)
        d = d + comps[:, 6] + 0.5 * comps[:, 7]  # farther and older sales count less
        w = torch.softmax(-d, dim=0)
        seg = 1 if subject[0] > self.luxury_sqft else 0
        adjusted = comp_prices
        for i, head in enumerate(self.segment_heads):
            if i == seg:
                adj = 0.1 * torch.tanh(head(subject - comps))[:, 0]
                adjusted = comp_prices * (1.0 + adj)
        est = (w * adjusted).sum().reshape(1)
        return 0.8 * est + 0.2 * base_price, w


def _market(N, sqft, seed):
    g = torch.Generator().manual_seed(seed)
    subject = torch.tensor([sqft, 3.0, 2.0, 0.4, 0.8, 1.0, 0.0, 0.0])
    comps = subject + 0.2 * torch.randn(N, 8, generator=g)
    comps[:, 6] = torch.rand(N, generator=g) * 3.0
    comps[:, 7] = torch.rand(N, generator=g)
    prices = 2.0 * comps[:, 0] + 0.3 * comps[:, 1] + 0.1 * torch.randn(N, generator=g)
    return subject, comps, prices


def model():
    torch.manual_seed(4607)
    return AppraisalModel().eval()


def example_inputs():
    return _market(6, 1.8, 1)


def dynamic_shapes():
    return (None, {0: torch.export.Dim("comps", min=2, max=64)}, {0: torch.export.Dim("comps", min=2, max=64)})


def verify_inputs():
    return [
        example_inputs(),       # standard home, enough comps
        _market(2, 2.2, 2),     # N=min < 3: early return with hedonic price only
        _market(64, 5.5, 3),    # luxury home (sqft > 4000), N=max
        _market(3, 4.6, 4),     # luxury, exactly min_comps
    ]
