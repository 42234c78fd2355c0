"""Text encoder that normalises sequence length before encoding.

Long inputs are truncated head+tail style (keep the first and last tokens),
short inputs are right-padded with the pad id, and an all-padding batch
short-circuits to a zero embedding.  Token id 0 is padding.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

PAD_ID = 0


class MaskedSelfAttention(nn.Module):
    def __init__(self, d, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.qkv = nn.Linear(d, 3 * d)
        self.out = nn.Linear(d, d)

    def forward(self, h, mask):
        B, T, D = h.shape
        hd = D // self.n_heads
        q, k, v = self.qkv(h).chunk(3, dim=-1)
        q = q.view(B, T, self.n_heads, hd).transpose(1, 2)
        k = k.view(B, T, self.n_heads, hd).transpose(1, 2)
        v = v.view(B, T, self.n_heads, hd).transpose(1, 2)
        scores = q @ k.transpose(-1, -2) / hd ** 0.5
        scores = scores.masked_fill(~mask[:, None, None, :], -1e4)
        att = scores.softmax(dim=-1)
        y = (att @ v).transpose(1, 2).reshape(B, T, D)
        return self.out(y)


class Block(nn.Module):
    def __init__(self, d, n_heads):
        super().__init__()
        self.ln1 = nn.LayerNorm(d)
        self.attn = MaskedSelfAttention(d, n_heads)
        self.ln2 = nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))

    def forward(self, h, mask):
        h = h + self.attn(self.ln1(h), mask)
        h = h + self.ff(self.ln2(h))
        return h


class LengthNormalizedEncoder(nn.Module):
    def __init__(self, vocab=120, d=32, n_layers=2, n_heads=4,
                 max_len=24, min_len=8, use_cls=True):
        super().__init__()
        self.max_len = max_len
        self.min_len = min_len
        self.use_cls = use_cls
        self.embed = nn.Embedding(vocab, d, padding_idx=PAD_ID)
        self.cls = nn.Parameter(torch.randn(1, 1, d) * 0.02)
        self.pos = nn.Parameter(torch.randn(max_len + 1, d) * 0.02)
        self.layers = nn.ModuleList([Block(d, n_heads) for _ in range(n_layers)])
        self.norm = nn.LayerNorm(d)

    def forward(self, tokens):
        B, T = tokens.shape
        if T > self.max_len:
            head = self.max_len // 2
            tail = self.max_len - head
            tokens = torch.cat([tokens[:, :head], tokens[:, T - tail:]], dim=1)
        elif T < self.min_len:
            pad = tokens.new_full((B, self.min_len - T), PAD_ID)
            tokens = torch.cat([tokens, pad], dim=1)

        mask = tokens != PAD_ID
        if not mask.any():
            return torch.zeros(B, self.embed.embedding_dim)

        h = self.embed(tokens)
        if self.use_cls:
            h = torch.cat([self.cls.expand(B, 1, -1), h], dim=1)
            mask = torch.cat([mask.new_ones(B, 1), mask], dim=1)
        h = h + self.pos[: h.shape[1]]
        for layer in self.layers:
            h = layer(h, mask)
        h = self.norm(h)
        if self.use_cls:
            return h[:, 0]
        w = mask.unsqueeze(-1).float()
        return (h * w).sum(1) / w.sum(1).clamp(min=1.0)


def model():
    torch.manual_seed(0)
    return LengthNormalizedEncoder().eval()


def _tokens(g, B, T, n_pad_tail=0):
    t = torch.randint(1, 120, (B, T), generator=g)
    if n_pad_tail:
        t[:, T - n_pad_tail:] = PAD_ID
    return t


def example_inputs():
    g = torch.Generator().manual_seed(1)
    return (_tokens(g, 3, 16, 4),)


def dynamic_shapes():
    return ({0: torch.export.Dim("batch", min=2, max=8),
             1: torch.export.Dim("seq", min=2, max=64)},)


def verify_inputs():
    g = torch.Generator().manual_seed(2)
    return [
        (_tokens(g, 2, 40, 10),),            # truncation
        (_tokens(g, 4, 5),),                 # padding
        (_tokens(g, 3, 12, 3),),             # in range
        (torch.zeros(2, 10, dtype=torch.int64),),  # all padding -> early return
    ]
