"""Personalized PageRank over a paper-citation graph.

The teleport distribution comes from a learned topic-relevance score of each
paper's features. Power iteration runs until the L1 change drops below the
tolerance or the iteration budget is used up; papers that cite nothing
(dangling nodes) redistribute their mass along the teleport distribution.
"""
import torch
import torch.nn as nn


class CitationPageRankScorer(nn.Module):
    def __init__(self, num_features=8, damping=0.85, tol=1e-3, max_iter=20):
        super().__init__()
        self.damping = damping
        self.tol = tol
        self.max_iter = max_iter
        self.topic = nn.Linear(num_features, 1)

    def forward(self, citations, features):
        # citations: [N, N] weight of paper i citing paper j; features: [N, F]
        n = citations.shape[0]
        teleport = torch.softmax(self.topic(features).squeeze(-1), dim=0)
        out_weight = citations.sum(1)
        dangling = out_weight == 0
        transition = citations / out_weight.clamp(min=1e-12)[:, None]
        rank = torch.full((n,), 1.0 / n)
        delta = torch.tensor(float("inf"))
        it = torch.zeros((), dtype=torch.int64)
        while delta > self.tol and it < self.max_iter:
            new = self.damping * (rank @ transition)
            if dangling.any():
                new = new + self.damping * rank[dangling].sum() * teleport
            new = new + (1.0 - self.damping) * teleport
            delta = (new - rank).abs().sum()
            rank = new
            it = it + 1
        return rank, it


def model():
    torch.manual_seed(0)
    return CitationPageRankScorer().eval()


def _random_graph(n, density, seed, dangling=0):
    g = torch.Generator().manual_seed(seed)
    cites = (torch.rand(n, n, generator=g) < density).float() * (0.5 + torch.rand(n, n, generator=g))
    cites.fill_diagonal_(0.0)
    if dangling:
        cites[:dangling] = 0.0
    cites[dangling:, 0] += 0.5  # everyone cites the survey paper
    return cites, torch.randn(n, 8, generator=g)


def _chain_graph(n, seed):
    # papers citing only their predecessor: mass sloshes slowly down the chain
    g = torch.Generator().manual_seed(seed)
    cites = torch.zeros(n, n)
    idx = torch.arange(1, n)
    cites[idx, idx - 1] = 1.0
    cites[0, n - 1] = 1.0
    cites = cites + 0.02 * (torch.arange(n)[:, None] == (torch.arange(n)[None, :] + 2) % n).float()
    return cites, torch.randn(n, 8, generator=g)


def example_inputs():
    return _random_graph(12, 0.3, 0)


def dynamic_shapes():
    N = torch.export.Dim("papers", min=2, max=256)
    return ({0: N, 1: N}, {0: N})


def verify_inputs():
    return [
        _random_graph(20, 0.3, 1),              # well connected: converges quickly
        _random_graph(15, 0.2, 2, dangling=3),  # some papers cite nothing
        _chain_graph(24, 3),                    # slow mixing: budget runs out
        _random_graph(2, 1.0, 4),               # two papers
    ]
