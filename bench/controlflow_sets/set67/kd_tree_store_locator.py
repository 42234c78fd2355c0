"""Retail store locator: nearest store for every customer via a k-d tree.

Store coordinates (km, local projection) are organised into a k-d tree
(median splits, alternating axes, small leaves), and each customer's nearest
store is found with the usual branch-and-bound stack search. Tiny store
networks skip the tree and use brute force. A small MLP turns the distance to
the nearest store into expected weekly visits, accumulated per store.

Constructs: 1, 2, 5, 6, 7, 8
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim


class StoreLocator(nn.Module):
    def __init__(self):
        super().__init__()
        self.leaf_size = 4
        self.brute_force_below = 8
        self.visits = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 1))

    def build(self, pts, idx, depth):
        if idx.shape[0] <= self.leaf_size:
            return {"leaf": idx}
        axis = depth % 2
        idx = idx[torch.argsort(pts[idx, axis])]
        mid = idx.shape[0] // 2
        return {
            "axis": axis,
            "split": pts[idx[mid], axis],
            "point": idx[mid],
            "left": self.build(pts, idx[:mid], depth + 1),
            "right": self.build(pts, idx[mid + 1:], depth + 1),
        }

    def nearest(self, tree, pts, q):
        best_d = torch.tensor(float("inf"))
        best_i = torch.tensor(-1)
        stack = [(tree, torch.zeros(()))]
        while len(stack) > 0:
            node, bound = stack.pop()
            if bound >= best_d:
                continue  # the whole subtree is farther than the best store so far
            if "leaf" in node:
                d = ((pts[node["leaf"]] - q) ** 2).sum(1)
                j = d.argmin()
                if d[j] < best_d:
                    best_d, best_i = d[j], node["leaf"][j]
                continue
            p = node["point"]
            d = ((pts[p] - q) ** 2).sum()
            if d < best_d:
                best_d, best_i = d, p
            diff = q[node["axis"]] - node["split"]
            if diff < 0:
                near, far = node["left"], node["right"]
            else:
                near, far = node["right"], node["left"]
            stack.append((far, diff ** 2))
            stack.append((near, torch.zeros(())))
        return best_d.sqrt(), best_i

    def forward(self, stores, customers):
        n = stores.shape[0]
        if n <= self.brute_force_below:
            dist, idx = torch.cdist(customers, stores).min(dim=1)
        else:
            tree = self.build(stores, torch.arange(n), 0)
            dists, ids = [], []
            for c in range(customers.shape[0]):
                d, i = self.nearest(tree, stores, customers[c])
                dists.append(d)
                ids.append(i)
            dist, idx = torch.stack(dists), torch.stack(ids)
        feats = torch.stack([dist, customers.norm(dim=1) / 10.0, torch.ones_like(dist)], dim=1)
        visits = F.softplus(self.visits(feats)).squeeze(1)
        load = torch.zeros(n).index_add(0, idx, visits)
        return dist, idx, load


def model():
    torch.manual_seed(67)
    return StoreLocator().eval()


def _city(n_stores, n_customers, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.rand(n_stores, 2, generator=g) * 20.0, torch.rand(n_customers, 2, generator=g) * 20.0


def example_inputs():
    return _city(24, 6, 1)  # k-d tree path, depth 3


def dynamic_shapes():
    return ({0: Dim("stores", min=2, max=64)}, {0: Dim("customers", min=2, max=32)})


def verify_inputs():
    return [
        example_inputs(),   # tree search: pruned and visited subtrees, leaf hits with and without improvement
        _city(6, 3, 2),     # small network: brute force (size branch)
        _city(40, 10, 3),   # deeper tree, more customers
    ]
