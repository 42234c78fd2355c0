"""Decision-tree inference: walk nodes while the current node is internal (while on tensor)."""

import torch
from torch import nn


class Tree(nn.Module):
    def __init__(self):
        super().__init__()
        # node: feature, threshold, left, right, value (leaf when left == -1)
        self.register_buffer("feat", torch.tensor([0, 1, 2, 0, 0, 0, 0]))
        self.register_buffer("thr", torch.tensor([0.0, 0.5, -0.5, 0.0, 0.0, 0.0, 0.0]))
        self.register_buffer("left", torch.tensor([1, 3, 5, -1, -1, -1, -1]))
        self.register_buffer("right", torch.tensor([2, 4, 6, -1, -1, -1, -1]))
        self.register_buffer("value", torch.tensor([0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 4.0]))

    def forward(self, x):
        node = torch.tensor(0)
        depth = torch.tensor(0)
        while self.left[node] >= 0:
            go_left = x[0, self.feat[node]] <= self.thr[node]
            node = torch.where(go_left, self.left[node], self.right[node])
            depth += 1
        return self.value[node] * torch.ones(1), depth


def model():
    return Tree()


def example_inputs():
    return (torch.tensor([[-1.0, 0.0, 0.0]]),)


def verify_inputs():
    return [
        (torch.tensor([[-1.0, 1.0, 0.0]]),),
        (torch.tensor([[1.0, 0.0, -1.0]]),),
        (torch.tensor([[1.0, 0.0, 1.0]]),),
    ]
