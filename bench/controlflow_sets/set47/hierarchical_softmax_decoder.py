"""Hierarchical-softmax output layer for a large-vocabulary language model:
greedy descent of the binary class tree per context vector, stopping early at
an internal node when the model is unsure (backs off to the coarse class).

Constructs: 1 (branch left/right), 4 (while on the tensor node index),
5 (for over the dynamic batch, append + stack), 6 (break when unsure),
7 (descent in a helper), 9 (static loop over nn.ModuleList of norm layers,
config flag).
"""
import torch
import torch.nn as nn


def descend(h, node_w, node_b, n_internal, min_conf):
    node = torch.tensor(0)
    logp = torch.zeros(())
    while node < n_internal:
        logit = (node_w[node] * h).sum() + node_b[node]
        p_right = torch.sigmoid(logit)
        if torch.maximum(p_right, 1 - p_right) < min_conf:
            break  # unsure: stop at this internal node
        if p_right > 0.5:
            logp = logp + torch.log(p_right)
            node = 2 * node + 2
        else:
            logp = logp + torch.log(1 - p_right)
            node = 2 * node + 1
    return node, logp


class HierarchicalSoftmaxDecoder(nn.Module):
    def __init__(self, dim=16, depth=4, pre_norm=True, min_conf=0.6):
        super().__init__()
        self.n_internal = 2 ** depth - 1
        self.pre_norm = pre_norm
        self.min_conf = min_conf
        self.norms = nn.ModuleList([nn.LayerNorm(dim) for _ in range(2)])
        self.proj = nn.Linear(dim, dim)
        self.node_w = nn.Parameter(torch.randn(self.n_internal, dim))
        self.node_b = nn.Parameter(0.1 * torch.randn(self.n_internal))

    def forward(self, ctx):
        # ctx: [B, dim] decoder states
        x = ctx
        for norm in (self.norms if self.pre_norm else []):
            x = norm(x)
        x = torch.tanh(self.proj(x)) * 3.0
        nodes, logps = [], []
        for b in range(x.shape[0]):
            node, logp = descend(x[b], self.node_w, self.node_b, self.n_internal, self.min_conf)
            nodes.append(node)
            logps.append(logp)
        nodes = torch.stack(nodes)
        is_leaf = nodes >= self.n_internal
        return nodes - self.n_internal, torch.stack(logps), is_leaf


def model():
    torch.manual_seed(16)
    return HierarchicalSoftmaxDecoder().eval()


def _ctx(B, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(B, 16, generator=g) * 2.0


def example_inputs():
    return (_ctx(6, 0),)


def dynamic_shapes():
    return ({0: torch.export.Dim("batch", min=2, max=32)},)


def verify_inputs():
    return [
        example_inputs(),   # mix of full descents and early stops
        (_ctx(2, 1),),      # min batch
        (_ctx(32, 2),),     # max batch
        (_ctx(9, 3),),
    ]
