"""Streaming (chunked) conformer-lite encoder for on-device speech recognition.

Features (1, T, 80) of dynamic length are padded to a multiple of the chunk size when
needed and processed chunk by chunk with a left-context cache, as the streaming runtime
would. Silent chunks (max |feature| tiny) skip the encoder and emit zeros (`continue`).
Layers live in an nn.ModuleList; each block has a config flag for the convolution
module and a `self.training`-only dropout path (plain Python).
Output: (1, T, 64) encoder states.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim


class ConformerBlock(nn.Module):
    def __init__(self, d=64, heads=4, use_conv=True, p_drop=0.1):
        super().__init__()
        self.ff = nn.Sequential(nn.LayerNorm(d), nn.Linear(d, 2 * d), nn.SiLU(), nn.Linear(2 * d, d))
        self.norm_att = nn.LayerNorm(d)
        self.att = nn.MultiheadAttention(d, heads, batch_first=True)
        self.use_conv = use_conv
        self.conv = nn.Sequential(
            nn.Conv1d(d, d, 5, padding=2, groups=d), nn.BatchNorm1d(d), nn.SiLU(), nn.Conv1d(d, d, 1)
        )
        self.p_drop = p_drop

    def forward(self, x):
        x = x + 0.5 * self.ff(x)
        h = self.norm_att(x)
        a, _ = self.att(h, h, h, need_weights=False)
        if self.training:  # static: eval mode
            a = F.dropout(a, self.p_drop)
        x = x + a
        if self.use_conv:  # static config flag
            x = x + self.conv(x.transpose(1, 2)).transpose(1, 2)
        return x


class StreamingEncoder(nn.Module):
    def __init__(self, n_mels=80, d=64, n_layers=3, chunk=16, left=16, silence=1e-3):
        super().__init__()
        self.proj = nn.Linear(n_mels, d)
        self.layers = nn.ModuleList([ConformerBlock(d, use_conv=(i % 2 == 0)) for i in range(n_layers)])
        self.chunk = chunk
        self.left = left
        self.silence = silence
        self.d = d

    def forward(self, feats):
        t = feats.shape[1]
        x = feats
        if t % self.chunk != 0:
            x = F.pad(x, (0, 0, 0, self.chunk - t % self.chunk))
        x = self.proj(x)
        cache = torch.zeros(1, self.left, self.d)
        outs = []
        for c in range(x.shape[1] // self.chunk):
            cur = x[:, c * self.chunk : (c + 1) * self.chunk]
            raw = feats[:, c * self.chunk : (c + 1) * self.chunk]
            if raw.abs().max() < self.silence:
                outs.append(torch.zeros(1, self.chunk, self.d))
                cache = torch.zeros(1, self.left, self.d)
                continue
            h = torch.cat([cache, cur], dim=1)
            for layer in self.layers:
                h = layer(h)
            outs.append(h[:, -self.chunk :])
            cache = cur[:, -self.left :]
        return torch.cat(outs, dim=1)[:, :t]


def model():
    torch.manual_seed(0)
    return StreamingEncoder().eval()


def _feats(t, seed, silent=()):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(1, t, 80, generator=g)
    for a, b in silent:
        x[:, a:b] = 0.0
    return (x,)


def example_inputs():
    return _feats(64, 1)


def dynamic_shapes():
    return {"feats": {1: Dim("frames", min=16, max=1024)}}


def verify_inputs():
    return [_feats(16, 2), _feats(100, 3, silent=((32, 64),)), _feats(37, 4, silent=((32, 37),))]
