"""Punctuation restoration for on-device ASR output: token ids -> per-token class
(none, comma, period, question). A GRU cell runs over the tokens in a Python loop;
padded tokens (id 0) keep the previous state; inputs are padded to a multiple of 8.
"""
import torch
from torch import nn
import torch.nn.functional as F

VOCAB = 500
EMB = 32
HID = 48
PAD = 0


class PunctRestorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, EMB, padding_idx=PAD)
        self.fw = nn.GRUCell(EMB, HID)
        self.cls = nn.Linear(HID + EMB, 4)

    def forward(self, ids):  # (B, L) int64
        b, L = ids.shape
        if L % 8 != 0:
            ids = F.pad(ids, (0, 8 - L % 8), value=PAD)
        e = self.emb(ids)
        has_pad = (ids == PAD).any()
        h = torch.zeros(b, HID)
        outs = []
        for t in range(ids.shape[1]):
            h_new = self.fw(e[:, t], h)
            if has_pad:
                keep = (ids[:, t] != PAD).unsqueeze(-1)
                h = torch.where(keep, h_new, h)
            else:
                h = h_new
            outs.append(h)
        hs = torch.stack(outs, 1)
        logits = self.cls(torch.cat([hs, e], -1))
        return logits[:, :L]


def model():
    torch.manual_seed(0)
    return PunctRestorer().eval()


def _ids(b, L, seed, pad_tail=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randint(1, VOCAB, (b, L), generator=g)
    if pad_tail:
        x[0, L - pad_tail:] = PAD
    return x


def example_inputs():
    return (_ids(2, 16, 0),)


def dynamic_shapes():
    return ({1: torch.export.Dim("tokens", min=2, max=256)},)


def verify_inputs():
    return [
        (_ids(2, 13, 1),),             # padded to 16
        (_ids(2, 24, 2, pad_tail=5),), # explicit padding, aligned
        (_ids(2, 3, 3),),
    ]
