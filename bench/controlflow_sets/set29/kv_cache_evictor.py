"""Decoder block stack that attends over a bounded KV cache.

When the cached context is longer than the budget, the cache is evicted down to the first
few "attention sink" tokens plus the most recent window.  If a layer's attention is nearly
uniform (high entropy) the layer falls back to mean pooling of the values, which is cheaper
and just as informative.
"""
import math

import torch
from torch import nn


class CacheAttentionLayer(nn.Module):
    def __init__(self, dim, max_entropy_frac):
        super().__init__()
        self.dim = dim
        self.max_entropy_frac = max_entropy_frac
        self.q = nn.Linear(dim, dim)
        self.k = nn.Linear(dim, dim)
        self.v = nn.Linear(dim, dim)
        self.o = nn.Linear(dim, dim)
        self.norm = nn.LayerNorm(dim)

    def forward(self, h, context):
        x = self.norm(h)
        q, k, v = self.q(x), self.k(context), self.v(context)
        attn = torch.softmax(q @ k.T / math.sqrt(self.dim), dim=-1)
        entropy = -(attn * torch.log(attn + 1e-9)).sum(-1).mean()
        if entropy > self.max_entropy_frac * math.log(context.shape[0]):
            mixed = v.mean(0, keepdim=True).expand(h.shape[0], -1)
            fell_back = torch.ones((), dtype=torch.int64)
        else:
            mixed = attn @ v
            fell_back = torch.zeros((), dtype=torch.int64)
        return h + self.o(mixed), fell_back


class KVCacheEvictor(nn.Module):
    def __init__(self, dim=16, layers=3, budget=24, sinks=4, max_entropy_frac=0.9):
        super().__init__()
        self.budget = budget
        self.sinks = sinks
        self.use_sinks = True
        self.layers = nn.ModuleList([CacheAttentionLayer(dim, max_entropy_frac) for _ in range(layers)])

    def forward(self, context, tokens):
        # context: [S, dim] cached hidden states, tokens: [T, dim] new tokens
        if context.shape[0] > self.budget:
            if self.use_sinks:
                context = torch.cat([context[: self.sinks], context[-(self.budget - self.sinks):]])
            else:
                context = context[-self.budget:]
        h = tokens
        fallbacks = []
        for layer in self.layers:
            h, fell_back = layer(h, context)
            fallbacks.append(fell_back)
        return h, torch.stack(fallbacks), torch.tensor(context.shape[0])


def model():
    torch.manual_seed(0)
    return KVCacheEvictor().eval()


def _make(s, t, scale, seed):
    g = torch.Generator().manual_seed(seed)
    context = torch.randn(s, 16, generator=g) * scale
    tokens = torch.randn(t, 16, generator=g)
    return context, tokens


def example_inputs():
    return _make(30, 3, 1.0, 0)


def dynamic_shapes():
    return ({0: torch.export.Dim("cache_len", min=2, max=96)}, {0: torch.export.Dim("new_tokens", min=2, max=8)})


def verify_inputs():
    return [
        _make(10, 2, 4.0, 1),     # short cache, sharp attention
        _make(60, 4, 0.05, 2),    # long cache evicted, diffuse attention
        _make(24, 3, 3.0, 3),     # exactly at budget
        _make(40, 2, 2.5, 4),
        example_inputs(),
    ]
