"""E-commerce product taxonomy classifier with a binary-tree (hierarchical) head.

Each listing title (token ids, 0 = padding) is encoded by averaging token
embeddings through a small MLP. The taxonomy is stored as a complete binary
tree (heap indexing: internal nodes 1..n_leaves-1, leaf categories after
that). For every listing the classifier walks down the tree, taking the more
probable child at each node, and stops early at an internal (coarser) category
when the decision is not confident enough. Empty titles are skipped.

Kind X. Constructs: 1 (if/else on tensor comparisons), 2 (branches assign the
same variables, value from before the loop kept on early stop), 4 (while down
the tree with a tensor condition: node index is a tensor), 5 (for over the
dynamic number of listings, append + stack), 6 (break on low confidence,
continue on empty titles), 7 (tree submodule method calling another helper
method). Path length per listing is data dependent.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TaxonomyTree(nn.Module):
    def __init__(self, dim, n_leaves=12, min_confidence=0.8):
        super().__init__()
        self.n_leaves = n_leaves
        self.min_confidence = min_confidence
        self.node_w = nn.Parameter(torch.randn(n_leaves, dim) * 1.2)  # row 0 unused (heap starts at 1)
        self.node_b = nn.Parameter(torch.randn(n_leaves) * 0.5)

    def branch_logit(self, node, h):
        return (self.node_w[node] * h).sum() + self.node_b[node]

    def descend(self, h):
        node = torch.ones((), dtype=torch.long)
        logp = torch.zeros(())
        depth = 0
        while node < self.n_leaves:
            s = self.branch_logit(node, h)
            go_right = s > 0
            p = torch.sigmoid(s) if go_right else torch.sigmoid(-s)
            if p < self.min_confidence:
                break  # not sure: label the listing with the coarser category `node`
            logp = logp + torch.log(p)
            node = 2 * node + go_right.long()
            depth += 1
        return node, logp, depth


class TaxonomyClassifier(nn.Module):
    def __init__(self, vocab=1000, dim=24):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim, padding_idx=0)
        self.encoder = nn.Sequential(nn.Linear(dim, dim), nn.Tanh(), nn.Linear(dim, dim))
        self.tree = TaxonomyTree(dim)

    def forward(self, titles):
        # titles: (N, L) int64 token ids, 0 = padding
        lengths = (titles != 0).sum(dim=1)
        emb = self.embed(titles).sum(dim=1) / lengths.clamp(min=1).unsqueeze(1)
        hidden = F.layer_norm(self.encoder(emb), emb.shape[-1:])
        nodes, logps, depths = [], [], []
        for i in range(titles.shape[0]):
            if lengths[i] == 0:
                nodes.append(torch.tensor(-1))
                logps.append(torch.zeros(()))
                depths.append(torch.tensor(0))
                continue
            node, logp, depth = self.tree.descend(hidden[i])
            nodes.append(node)
            logps.append(logp)
            depths.append(torch.tensor(depth))
        return torch.stack(nodes), torch.stack(logps), torch.stack(depths)


def model():
    torch.manual_seed(3414)
    return TaxonomyClassifier().eval()


def _titles(n, length, seed, empty=()):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(1, 1000, (n, length), generator=g)
    lens = torch.randint(2, length + 1, (n,), generator=g)
    ids = ids * (torch.arange(length).unsqueeze(0) < lens.unsqueeze(1))
    for i in empty:
        ids[i] = 0
    return ids


def example_inputs():
    return (_titles(8, 12, 1, empty=(3,)),)


def dynamic_shapes():
    N = torch.export.Dim("listings", min=2, max=64)
    L = torch.export.Dim("tokens", min=2, max=48)
    return ({0: N, 1: L},)


def verify_inputs():
    return [
        # mixed batch: full-depth leaves, early stops at internal nodes, one empty title (continue)
        example_inputs(),
        # larger batch, longer titles
        (_titles(40, 30, 2),),
        # two short titles
        (_titles(2, 3, 3),),
        # all titles empty -> every listing skipped, while loop never entered
        (torch.zeros(3, 4, dtype=torch.long),),
    ]
