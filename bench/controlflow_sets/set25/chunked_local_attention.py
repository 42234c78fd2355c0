"""Small transformer encoder with block-local attention for long log sequences.

Sequences up to `window` tokens use full self-attention; longer ones are split
into consecutive windows that attend only within themselves (the last window
may be shorter).  Dropout only runs in training; an optional global summary
token is a config switch.  Returns per-token features and a pooled vector.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim


class LocalAttentionLayer(nn.Module):
    def __init__(self, dim=16, heads=2, window=16, p_drop=0.1):
        super().__init__()
        self.heads = heads
        self.window = window
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)
        self.norm = nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))
        self.p_drop = p_drop

    def attend(self, x):
        B, L, D = x.shape
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q = q.view(B, L, self.heads, -1).transpose(1, 2)
        k = k.view(B, L, self.heads, -1).transpose(1, 2)
        v = v.view(B, L, self.heads, -1).transpose(1, 2)
        att = (q @ k.transpose(-1, -2)) / (D // self.heads) ** 0.5
        y = att.softmax(-1) @ v
        return y.transpose(1, 2).reshape(B, L, D)

    def forward(self, x):
        h = self.norm(x)
        L = x.shape[1]
        if L <= self.window:
            y = self.attend(h)
        else:
            pieces = []
            for s in range(0, L, self.window):
                pieces.append(self.attend(h[:, s:s + self.window]))
            y = torch.cat(pieces, dim=1)
        y = self.out(y)
        if self.training:
            y = F.dropout(y, self.p_drop)
        x = x + y
        return x + self.ff(x)


class LocalAttentionEncoder(nn.Module):
    def __init__(self, vocab_dim=8, dim=16, n_layers=2, use_global_token=False):
        super().__init__()
        self.embed = nn.Linear(vocab_dim, dim)
        self.layers = nn.ModuleList([LocalAttentionLayer(dim) for _ in range(n_layers)])
        self.use_global_token = use_global_token
        self.global_token = nn.Parameter(torch.zeros(1, 1, dim))

    def forward(self, x):
        h = self.embed(x)
        if self.use_global_token:
            h = torch.cat([self.global_token.expand(h.shape[0], -1, -1), h], dim=1)
        for layer in self.layers:
            h = layer(h)
        return h, h.mean(dim=1)


def model():
    torch.manual_seed(0)
    return LocalAttentionEncoder().eval()


def _make(seed, b, L):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(b, L, 8, generator=g),)


def example_inputs():
    return _make(0, 2, 20)


def dynamic_shapes():
    return ({0: Dim("batch", min=2, max=8), 1: Dim("seq", min=2, max=128)},)


def verify_inputs():
    return [
        _make(1, 2, 12),    # one window: full attention
        _make(2, 3, 16),    # exactly one window
        _make(3, 2, 32),    # two full windows
        _make(4, 4, 41),    # three windows, the last one short
        _make(5, 2, 3),
    ]
