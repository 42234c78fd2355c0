"""Small transformer text classifier that truncates long inputs and pads short ones to a minimum length."""

import torch
from torch import nn

VOCAB, D, MAX_LEN, MIN_LEN, PAD_ID, N_CLASSES = 100, 32, 64, 8, 0, 3


class EncoderLayer(nn.Module):
    def __init__(self, pre_norm: bool):
        super().__init__()
        self.q = nn.Linear(D, D)
        self.k = nn.Linear(D, D)
        self.v = nn.Linear(D, D)
        self.o = nn.Linear(D, D)
        self.ff = nn.Sequential(nn.Linear(D, 64), nn.GELU(), nn.Linear(64, D))
        self.n1 = nn.LayerNorm(D)
        self.n2 = nn.LayerNorm(D)
        self.pre_norm = pre_norm

    def attend(self, x, key_mask):
        scores = self.q(x) @ self.k(x).transpose(1, 2) / D**0.5
        scores = scores.masked_fill(~key_mask[:, None, :], -1e4)
        return self.o(torch.softmax(scores, dim=-1) @ self.v(x))

    def forward(self, x, key_mask):
        if self.pre_norm:
            x = x + self.attend(self.n1(x), key_mask)
            return x + self.ff(self.n2(x))
        x = self.n1(x + self.attend(x, key_mask))
        return self.n2(x + self.ff(x))


class TextClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, D, padding_idx=PAD_ID)
        self.pos = nn.Embedding(MAX_LEN, D)
        self.layers = nn.ModuleList([EncoderLayer(pre_norm=True), EncoderLayer(pre_norm=False)])
        self.head = nn.Linear(D, N_CLASSES)

    def forward(self, ids):
        if ids.shape[1] > MAX_LEN:
            ids = ids[:, :MAX_LEN]
        elif ids.shape[1] < MIN_LEN:
            pad = torch.full((ids.shape[0], MIN_LEN - ids.shape[1]), PAD_ID, dtype=ids.dtype)
            ids = torch.cat([ids, pad], dim=1)
        mask = ids != PAD_ID
        x = self.tok(ids) + self.pos(torch.arange(ids.shape[1]))[None]
        for layer in self.layers:
            x = layer(x, mask)
        w = mask.unsqueeze(-1).float()
        pooled = (x * w).sum(1) / w.sum(1).clamp_min(1.0)
        return self.head(pooled)


def model():
    torch.manual_seed(0)
    return TextClassifier().eval()


def example_inputs():
    torch.manual_seed(1)
    return (torch.randint(1, VOCAB, (2, 20)),)


def dynamic_shapes():
    return ({1: torch.export.Dim("tokens", min=1, max=256)},)


def verify_inputs():
    g = torch.Generator().manual_seed(2)
    padded = torch.randint(1, VOCAB, (2, 40), generator=g)
    padded[1, 25:] = PAD_ID
    return [
        (torch.randint(1, VOCAB, (2, 1), generator=g),),  # shorter than MIN_LEN: pad
        (torch.randint(1, VOCAB, (2, 7), generator=g),),
        (torch.randint(1, VOCAB, (2, 8), generator=g),),  # exactly MIN_LEN: neither
        (torch.randint(1, VOCAB, (2, 64), generator=g),),  # exactly MAX_LEN: neither
        (torch.randint(1, VOCAB, (2, 65), generator=g),),  # truncate
        (torch.randint(1, VOCAB, (2, 256), generator=g),),
        (padded,),
    ]
