"""On-device SMS spam filter: token embedding, a stack of gated conv blocks, pooling, and a
hard rule for messages with a link or blacklisted tokens."""

import torch
import torch.nn.functional as F
from torch import nn

VOCAB = 1000
URL_ID = 7
BLACKLIST_MAX = 20  # ids 10..19: "winner", "free", "claim", ...


class GatedConv(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.conv = nn.Conv1d(d, 2 * d, 3, padding=1)

    def forward(self, x):  # (B, L, d)
        a, b = self.conv(x.transpose(1, 2)).chunk(2, dim=1)
        return x + (a * torch.sigmoid(b)).transpose(1, 2)


class SpamFilter(nn.Module):
    def __init__(self, d: int = 32, max_len: int = 64, attention_pool: bool = True):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, d)
        self.layers = nn.ModuleList([GatedConv(d) for _ in range(3)])
        self.attn = nn.Linear(d, 1)
        self.head = nn.Linear(d, 1)
        self.max_len = max_len
        self.attention_pool = attention_pool

    def forward(self, tokens: torch.Tensor):
        # tokens: (B, L) int64, 0 = padding
        if tokens.shape[1] > self.max_len:
            tokens = tokens[:, : self.max_len]
        x = self.emb(tokens)
        for layer in self.layers:
            x = layer(x)
        if self.attention_pool:  # static
            a = torch.softmax(self.attn(x).squeeze(-1), dim=1)
            pooled = (a.unsqueeze(-1) * x).sum(1)
        else:
            pooled = x.mean(1)
        bad = ((tokens >= 10) & (tokens < BLACKLIST_MAX)).sum(1).float()
        logit = 0.2 * self.head(pooled).squeeze(-1) + 1.5 * bad - 2.0
        p = torch.sigmoid(logit)
        has_url = (tokens == URL_ID).any(dim=1)
        if has_url.any() or p.max() > 0.95:
            # links and near-certain spam are quarantined: hard decision
            return torch.where(has_url, torch.ones_like(p), p), (has_url | (p > 0.95)).long()
        return p, torch.zeros_like(p, dtype=torch.long)


def model() -> nn.Module:
    torch.manual_seed(0)
    return SpamFilter().eval()


def _msgs(b, l, seed, url=False, bad=0):
    g = torch.Generator().manual_seed(seed)
    t = torch.randint(20, VOCAB, (b, l), generator=g)
    if url:
        t[0, l // 2] = URL_ID
    for k in range(bad):
        t[-1, k] = 10 + k
    return t


def example_inputs() -> tuple:
    return (_msgs(2, 24, 0),)


def dynamic_shapes():
    return ({0: torch.export.Dim("batch", min=2, max=32), 1: torch.export.Dim("len", min=4, max=160)},)


def verify_inputs() -> list:
    return [
        (_msgs(3, 100, 1, url=True),),  # long message with a link (truncated)
        (_msgs(2, 8, 2, bad=5),),       # blacklisted words: near-certain spam
        (_msgs(4, 64, 3, bad=1),),
    ]
