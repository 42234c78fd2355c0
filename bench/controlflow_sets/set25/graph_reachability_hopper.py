"""Hop-by-hop influence propagation on a supply-chain network.

Starting from the disrupted suppliers (source mask), disruption spreads along
directed supply edges for at most max_hops hops (a per-query tensor); it stops
as soon as no new company is reached.  Node features are embedded and, for
every hop, the mean embedding of the newly reached companies is read out.
Returns the hop distance of every node (-1 = unreached) and the per-hop
readouts.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class HopReadout(nn.Module):
    def __init__(self, in_dim=5, dim=8):
        super().__init__()
        self.embed = nn.Sequential(nn.Linear(in_dim, dim), nn.ReLU(), nn.Linear(dim, dim))

    def forward(self, feats, mask):
        h = self.embed(feats)
        w = mask.float()
        return (w @ h) / w.sum()


class DisruptionPropagator(nn.Module):
    def __init__(self):
        super().__init__()
        self.readout = HopReadout()
        self.min_edge_weight = 0.5

    def forward(self, adj, node_feats, sources, max_hops):
        edges = adj > self.min_edge_weight       # weak supply links do not propagate
        visited = sources.clone()
        frontier = sources
        dist = torch.where(sources, 0, -1)
        readouts = [self.readout(node_feats, sources)]
        for hop in range(int(max_hops.item())):
            reached = (frontier.float() @ edges.float()) > 0.5
            new = reached & ~visited
            if not new.any():
                break
            dist = torch.where(new, hop + 1, dist)
            visited = visited | new
            frontier = new
            readouts.append(self.readout(node_feats, new))
            if visited.all():
                break  # the whole network is affected
        return dist, torch.stack(readouts)


def model():
    torch.manual_seed(0)
    return DisruptionPropagator().eval()


def _make(seed, n, hops, density=0.15, n_src=1, chain=False):
    g = torch.Generator().manual_seed(seed)
    # edge weights are drawn away from the 0.5 cut so every link is clearly strong or weak
    strong = torch.rand(n, n, generator=g) < density
    adj = torch.where(strong, 0.7 + 0.3 * torch.rand(n, n, generator=g), 0.3 * torch.rand(n, n, generator=g))
    if chain:
        adj = 0.3 * torch.rand(n, n, generator=g)
        idx = torch.arange(n - 1)
        adj[idx, idx + 1] = 0.9
    feats = torch.randn(n, 5, generator=g)
    sources = torch.zeros(n, dtype=torch.bool)
    sources[:n_src] = True
    return adj, feats, sources, torch.tensor([hops])


def example_inputs():
    return _make(0, 10, 3)


def dynamic_shapes():
    n = Dim("companies", min=2, max=128)
    return ({0: n, 1: n}, {0: n}, {0: n}, None)


def verify_inputs():
    return [
        _make(1, 12, 6, chain=True),      # a supply chain: 6 hops, all used
        _make(2, 10, 0),                  # max_hops = 0
        _make(3, 8, 1, density=0.3),      # a single hop
        _make(4, 20, 10, density=0.2),    # saturates, then nothing new
        _make(5, 6, 4, density=0.0),      # isolated supplier: nothing reached
        _make(6, 5, 8, chain=True),       # chain of 5: everybody reached after 4 hops
    ]
