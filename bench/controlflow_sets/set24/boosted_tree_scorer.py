"""Gradient-boosted decision tree ensemble evaluated node by node.

The trees are stored as tensors (feature index, threshold, children, leaf
flag, leaf value) like an exported XGBoost/LightGBM model.  Every sample walks
each tree from the root until it reaches a leaf; missing features (encoded as
-999) follow the learned default direction.  Tree depths differ (one tree is a
stump made of a single leaf), so the walk length depends on the data.
"""
import torch
import torch.nn as nn

MISSING = -999.0

# node: (feature, threshold, left, right, is_leaf, value, default_left)
TREES = [
    [  # tree 0: depth 3, unbalanced
        (0, 0.5, 1, 2, 0, 0.0, 1),
        (1, -0.2, 3, 4, 0, 0.0, 0),
        (2, 1.0, 5, 6, 0, 0.0, 1),
        (0, 0.0, 0, 0, 1, -0.8, 0),
        (3, 0.3, 7, 8, 0, 0.0, 1),
        (0, 0.0, 0, 0, 1, 0.4, 0),
        (0, 0.0, 0, 0, 1, 1.1, 0),
        (0, 0.0, 0, 0, 1, -0.1, 0),
        (0, 0.0, 0, 0, 1, 0.25, 0),
    ],
    [  # tree 1: depth 1
        (3, -0.5, 1, 2, 0, 0.0, 0),
        (0, 0.0, 0, 0, 1, -0.3, 0),
        (0, 0.0, 0, 0, 1, 0.2, 0),
    ],
    [  # tree 2: a single leaf (bias tree)
        (0, 0.0, 0, 0, 1, 0.05, 0),
    ],
]


def _pack(trees):
    n_nodes = max(len(t) for t in trees)
    cols = list(zip(*[node for t in trees for node in t + [(0, 0.0, 0, 0, 1, 0.0, 0)] * (n_nodes - len(t))]))
    shape = (len(trees), n_nodes)
    return (torch.tensor(cols[0]).view(shape), torch.tensor(cols[1]).view(shape),
            torch.tensor(cols[2]).view(shape), torch.tensor(cols[3]).view(shape),
            torch.tensor(cols[4], dtype=torch.bool).view(shape), torch.tensor(cols[5]).view(shape),
            torch.tensor(cols[6], dtype=torch.bool).view(shape))


class BoostedTreeScorer(nn.Module):
    def __init__(self, trees=TREES, base_score=0.0, learning_rate=1.0, output="probability"):
        super().__init__()
        names = ["feature", "threshold", "left", "right", "is_leaf", "value", "default_left"]
        for name, t in zip(names, _pack(trees)):
            self.register_buffer(name, t)
        self.n_trees = len(trees)
        self.base_score = base_score
        self.learning_rate = learning_rate
        self.output = output

    def walk(self, x, t):
        node = torch.tensor(0)
        while not self.is_leaf[t, node]:
            v = x[self.feature[t, node]]
            if v == MISSING:
                go_left = self.default_left[t, node]
            else:
                go_left = v < self.threshold[t, node]
            node = self.left[t, node] if go_left else self.right[t, node]
        return self.value[t, node]

    def forward(self, x):
        scores = []
        for b in range(x.shape[0]):
            margin = torch.tensor(self.base_score)
            for t in range(self.n_trees):
                margin = margin + self.learning_rate * self.walk(x[b], t)
            scores.append(margin)
        margin = torch.stack(scores)
        if self.output == "probability":
            return torch.sigmoid(margin)
        return margin


def model():
    return BoostedTreeScorer().eval()


def example_inputs():
    return (torch.tensor([[0.1, 0.3, 0.0, 0.9], [0.9, -1.0, 2.0, 0.0]]),)


def dynamic_shapes():
    return ({0: torch.export.Dim("batch", min=2, max=64)},)


def verify_inputs():
    g = torch.Generator().manual_seed(17)
    rnd = torch.randn(6, 4, generator=g)
    return [
        (torch.tensor([[0.2, -0.6, 0.0, -0.9], [0.8, 0.0, 0.3, 0.0]]),),   # short paths both sides
        (torch.tensor([[0.2, 0.4, 0.0, 0.1], [0.2, 0.4, 0.0, 0.7], [0.9, 0.0, 1.6, -1.0]]),),  # deep paths
        (torch.tensor([[MISSING, 0.4, 0.0, MISSING], [0.1, MISSING, MISSING, 0.7]]),),  # missing values
        (rnd,),
    ]
