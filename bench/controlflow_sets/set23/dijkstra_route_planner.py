"""Road-network route planner: a learned travel-time model turns per-edge
features into costs, Dijkstra search (bounded number of node expansions)
settles nodes until the destination is reached, then the route is traced back
through the predecessor array."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TravelTimeModel(nn.Module):
    def __init__(self, feat=3, hidden=8):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(feat, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, edge_feats, adj):
        length = edge_feats[..., 0]
        slowdown = 1.0 + 0.5 * torch.tanh(self.mlp(edge_feats).squeeze(-1))
        return torch.where(adj, length * slowdown, torch.full_like(length, float("inf")))


class DijkstraRoutePlanner(nn.Module):
    def __init__(self):
        super().__init__()
        self.travel_time = TravelTimeModel()

    def trace_route(self, prev, source, target, n):
        nodes = [target]
        node = target
        while node != source:
            node = prev[node]
            nodes.append(node)
        route = torch.stack(nodes).flip(0)
        return torch.cat([route, torch.full((n - route.shape[0],), -1, dtype=torch.long)])

    def forward(self, edge_feats, adj, source, target, max_expansions):
        n = adj.shape[0]
        cost = self.travel_time(edge_feats, adj)
        ids = torch.arange(n)
        dist = torch.where(ids == source, 0.0, float("inf"))
        visited = torch.zeros(n, dtype=torch.bool)
        prev = torch.full((n,), -1, dtype=torch.long)
        for _ in range(int(max_expansions.item())):
            cand = torch.where(visited, float("inf"), dist)
            if bool(torch.isinf(cand).all()):
                break
            u = cand.argmin()
            if u == target:
                return self.trace_route(prev, source, target, n), dist[u]
            visited = visited | (ids == u)
            alt = dist[u] + cost[u]
            better = (alt < dist) & ~visited
            dist = torch.where(better, alt, dist)
            prev = torch.where(better, u, prev)
        return torch.full((n,), -1, dtype=torch.long), torch.tensor(-1.0)


def model():
    torch.manual_seed(0)
    return DijkstraRoutePlanner().eval()


def _graph(n, p_edge, seed, source, target, budget, cut=None):
    g = torch.Generator().manual_seed(seed)
    adj = torch.rand(n, n, generator=g) < p_edge
    adj = adj & ~torch.eye(n, dtype=torch.bool)
    if cut is not None:  # make `cut` unreachable
        adj[:, cut] = False
    length = torch.randint(1, 10, (n, n), generator=g).float()
    congestion = torch.rand(n, n, generator=g)
    lanes = torch.randint(1, 4, (n, n), generator=g).float()
    feats = torch.stack([length, congestion, lanes], -1)
    return feats, adj, torch.tensor(source), torch.tensor(target), torch.tensor(budget)


def example_inputs():
    return _graph(6, 0.5, 0, 0, 4, 10)


def dynamic_shapes():
    n = torch.export.Dim("nodes", min=2, max=128)
    return ({0: n, 1: n}, {0: n, 1: n}, None, None, None)


def verify_inputs():
    return [
        _graph(8, 0.4, 1, 2, 7, 3),
        _graph(5, 0.5, 2, 1, 3, 0),
        _graph(7, 0.4, 3, 0, 5, 20, cut=5),
        _graph(4, 0.6, 4, 2, 2, 5),
    ]
