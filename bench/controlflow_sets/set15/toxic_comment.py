"""Toxic comment filter for an on-device keyboard / chat moderation service.

Input: token ids (B, L) int64, L dynamic. Comments containing a hard-blocked token are
rejected immediately; otherwise a small transformer encoder scores toxicity. Long inputs are
truncated, and the sequence is padded to a multiple of 8 for the attention kernels.
"""

import torch
import torch.nn.functional as F
from torch import nn

VOCAB = 1000
BLOCKED_IDS = (13, 666)
PAD_ID = 0


class ToxicityFilter(nn.Module):
    def __init__(self, dim: int = 32, layers: int = 2, max_len: int = 128):
        super().__init__()
        self.max_len = max_len
        self.emb = nn.Embedding(VOCAB, dim, padding_idx=PAD_ID)
        self.pos = nn.Parameter(torch.randn(max_len, dim) * 0.02)
        self.blocks = nn.ModuleList(
            [nn.TransformerEncoderLayer(dim, 4, 64, dropout=0.0, batch_first=True) for _ in range(layers)]
        )
        self.head = nn.Linear(dim, 1)
        self.register_buffer("blocked", torch.tensor(BLOCKED_IDS))

    def forward(self, ids: torch.Tensor):
        hit = (ids.unsqueeze(-1) == self.blocked).any(-1).any(-1)
        if hit.any():
            return hit.float(), torch.ones_like(ids[:, 0])
        if ids.shape[1] > self.max_len:
            ids = ids[:, : self.max_len]
        pad = (8 - ids.shape[1] % 8) % 8
        ids = F.pad(ids, (0, pad), value=PAD_ID)
        mask = ids == PAD_ID
        h = self.emb(ids) + self.pos[: ids.shape[1]]
        for blk in self.blocks:
            h = blk(h, src_key_padding_mask=mask)
        keep = (~mask).unsqueeze(-1).float()
        pooled = (h * keep).sum(1) / keep.sum(1)
        prob = torch.sigmoid(self.head(pooled).squeeze(-1))
        label = torch.ones_like(ids[:, 0]) if prob.max() > 0.5 else torch.zeros_like(ids[:, 0])
        return prob, label


def model() -> nn.Module:
    torch.manual_seed(0)
    return ToxicityFilter().eval()


def _ids(b, l, seed, lo=100, hi=VOCAB):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(lo, hi, (b, l), generator=g)


def example_inputs() -> tuple:
    return (_ids(2, 20, 1),)


def dynamic_shapes():
    return ({1: torch.export.Dim("tokens", min=2, max=512)},)


def verify_inputs() -> list:
    blocked = _ids(2, 12, 2)
    blocked[1, 5] = 666
    return [
        (blocked,),            # hard-blocked token -> early reject
        (_ids(2, 200, 3),),    # truncated to max_len
        (_ids(2, 16, 4),),     # already a multiple of 8
        (_ids(2, 9, 5, 100, 300),),
    ]
