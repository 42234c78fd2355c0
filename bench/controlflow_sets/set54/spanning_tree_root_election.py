"""Network planning tool: simulate 802.1D spanning-tree convergence for a campus LAN.

Link costs are the configured port costs inflated by a small congestion model
of measured utilisation (rounded to integers like real path costs). Bridges
exchange configuration BPDUs in synchronous rounds: each bridge takes the best
(root id, root path cost, sender id) vector offered by its neighbours, or keeps
claiming to be root. Rounds repeat while anything changes, capped by the max-age
hop limit. Afterwards every link that carries no root port is blocked on the
side of the bridge with the worse (cost, id).
"""
import torch
import torch.nn as nn


class CongestionModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(1, 8), nn.Tanh(), nn.Linear(8, 1))

    def forward(self, util):
        return 1.0 + 0.5 * torch.sigmoid(self.mlp(util.unsqueeze(-1))).squeeze(-1)


class SpanningTreeSim(nn.Module):
    def __init__(self, max_age=20):
        super().__init__()
        self.congestion = CongestionModel()
        self.max_age = max_age

    def _elect_round(self, ids, adj, cost_matrix, root, cost, port):
        new_root, new_cost, new_port = root.clone(), cost.clone(), port.clone()
        for i in range(ids.shape[0]):
            nbrs = torch.nonzero(adj[i]).flatten()
            if nbrs.shape[0] == 0:
                continue  # isolated bridge: stays its own root
            offered_root = root[nbrs]
            offered_cost = cost[nbrs] + cost_matrix[i, nbrs]
            key = (offered_root << 32) | (offered_cost << 16) | ids[nbrs]
            best = key.argmin()
            if offered_root[best] < ids[i]:
                new_root[i], new_cost[i], new_port[i] = offered_root[best], offered_cost[best], nbrs[best]
            else:
                new_root[i], new_cost[i], new_port[i] = ids[i], 0, -1
        changed = (new_root != root).any() | (new_cost != cost).any() | (new_port != port).any()
        return new_root, new_cost, new_port, changed

    def forward(self, bridge_ids, port_cost, utilisation):
        n = bridge_ids.shape[0]
        adj = port_cost > 0
        cost_matrix = torch.where(adj, torch.round(port_cost * self.congestion(utilisation)), torch.zeros_like(port_cost))
        cost_matrix = cost_matrix.long()
        max_rounds = self.max_age if n > self.max_age else n

        root = bridge_ids.clone()
        cost = torch.zeros(n, dtype=torch.long)
        port = torch.full((n,), -1, dtype=torch.long)
        changed = torch.tensor(True)
        rounds = 0
        while changed and rounds < max_rounds:
            root, cost, port, changed = self._elect_round(bridge_ids, adj, cost_matrix, root, cost, port)
            rounds += 1

        blocked = torch.zeros(n, n, dtype=torch.long)
        for i in range(n):
            for j in torch.nonzero(adj[i]).flatten().tolist():
                if port[i] == j or port[j] == i:
                    continue  # part of the tree
                worse = cost[i] > cost[j] or (cost[i] == cost[j] and bridge_ids[i] > bridge_ids[j])
                if worse:
                    blocked[i, j] = 1
        return root, cost, port, blocked, torch.tensor(rounds)


def model():
    torch.manual_seed(802)
    return SpanningTreeSim().eval()


def _lan(n, edges, seed, priorities=None):
    g = torch.Generator().manual_seed(seed)
    macs = torch.randperm(4000, generator=g)[:n] + 16
    prio = torch.tensor(priorities) if priorities is not None else torch.full((n,), 8)
    ids = (prio << 12) | macs
    cost = torch.zeros(n, n)
    for a, b, c in edges:
        cost[a, b] = cost[b, a] = float(c)
    util = torch.rand(n, n, generator=g)
    util = 0.5 * (util + util.t())
    return ids.long(), cost, util


def example_inputs():
    edges = [(0, 1, 4), (1, 2, 4), (2, 3, 19), (3, 0, 4), (1, 4, 19), (4, 5, 4), (5, 2, 4)]
    return _lan(6, edges, 1, priorities=[8, 4, 8, 8, 8, 8])


def dynamic_shapes():
    b = torch.export.Dim("bridges", min=3, max=32)
    return ({0: b}, {0: b, 1: b}, {0: b, 1: b})


def verify_inputs():
    chain = [(k, k + 1, 4) for k in range(31)]
    return [
        example_inputs(),  # bridge 1 has the best priority; two loops get one blocked port each
        _lan(32, chain + [(0, 31, 100)], 2, priorities=[15] * 31 + [0]),
        # ^ max bridges: ring of 32 with the root at one end of a slow link; the far side is more than
        #   max-age (20) rounds away, so the loop stops on the round cap while still changing
        _lan(3, [(0, 1, 4), (1, 2, 4), (0, 2, 4)], 3),
        # ^ min bridges: triangle, converges and stops when nothing changes; ties in cost broken by bridge id
        _lan(5, [(0, 1, 4), (1, 2, 4)], 4),
        # ^ two bridges without links stay their own root (continue)
    ]
