"""Long-document classifier with a recurrent memory (segment-level recurrence).

Support-ticket threads can be far longer than the encoder window, so the
token stream is read in 32-token segments; a handful of memory slots are
carried from segment to segment through a small attention block with a gated
memory update (a Recurrent-Memory-Transformer-style reader). Short tickets
take a single pass. All-padding blocks left by the upstream batcher are
skipped, the last partial segment is padded, and reading stops at the
end-of-document marker (quoted history / signatures follow it). The memory
is pooled into ticket-category logits.

Token ids: 0 = PAD, 1 = EOD (end of the new message).

Constructs: 1, 2, 5, 6, 7, 8, 9
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim

PAD, EOD = 0, 1


class MemoryBlock(nn.Module):
    def __init__(self, d, use_gate=True):
        super().__init__()
        self.attn = nn.MultiheadAttention(d, 2, batch_first=True)
        self.ff = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))
        self.gate = nn.Linear(2 * d, d)
        self.use_gate = use_gate

    def forward(self, mem, seg_emb, seg_ids):
        x = torch.cat([mem, seg_emb], dim=0).unsqueeze(0)
        pad = torch.cat([torch.zeros(mem.shape[0], dtype=torch.bool), seg_ids == PAD])
        if pad.any():
            h, _ = self.attn(x, x, x, key_padding_mask=pad.unsqueeze(0), need_weights=False)
        else:
            h, _ = self.attn(x, x, x, need_weights=False)
        h = x + h
        h = h + self.ff(h)
        new_mem = h[0, :mem.shape[0]]
        if self.use_gate:  # static
            g = torch.sigmoid(self.gate(torch.cat([mem, new_mem], dim=-1)))
            new_mem = g * new_mem + (1 - g) * mem
        return new_mem


class SegmentMemoryReader(nn.Module):
    def __init__(self, vocab=500, d=32, n_mem=4, seg_len=32, n_classes=3):
        super().__init__()
        self.seg_len = seg_len
        self.emb = nn.Embedding(vocab, d)
        self.pos = nn.Parameter(0.02 * torch.randn(seg_len, d))
        self.mem0 = nn.Parameter(0.1 * torch.randn(n_mem, d))
        self.block = MemoryBlock(d)
        self.cls = nn.Linear(d, n_classes)

    def forward(self, ids):
        L = ids.shape[0]
        if L <= self.seg_len:
            mem = self.block(self.mem0, self.emb(ids) + self.pos[:L], ids)
            return self.cls(mem.mean(0)), torch.tensor(1)

        mem = self.mem0
        used = 0
        n_seg = (L + self.seg_len - 1) // self.seg_len
        for s in range(n_seg):
            seg = ids[s * self.seg_len:(s + 1) * self.seg_len]
            if seg.shape[0] < self.seg_len:
                seg = F.pad(seg, (0, self.seg_len - seg.shape[0]), value=PAD)
            if (seg == PAD).all():
                continue  # padding block from the batcher
            mem = self.block(mem, self.emb(seg) + self.pos, seg)
            used += 1
            if (seg == EOD).any():
                break  # end of the new message: quoted history follows
        return self.cls(mem.mean(0)), torch.tensor(used)


def model():
    torch.manual_seed(67)
    return SegmentMemoryReader().eval()


def _ticket(L, seed, pad_blocks=(), eod_at=None):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(2, 500, (L,), generator=g)
    for a, b in pad_blocks:
        ids[a:b] = PAD
    if eod_at is not None:
        ids[eod_at] = EOD
    return (ids,)


def example_inputs():
    # 100 tokens: segment 2 is a padding block (skipped), last segment has 4 tokens (padded, masked attention)
    return _ticket(100, 1, pad_blocks=[(32, 64)])


def dynamic_shapes():
    return ({0: Dim("tokens", min=4, max=320)},)


def verify_inputs():
    return [
        example_inputs(),                       # continue on the pad block, partial last segment, no EOD
        _ticket(20, 2),                         # short ticket: single pass, early return (no padding in the block)
        _ticket(150, 3, eod_at=70),             # EOD inside the 3rd segment: break (segments 4-5 never read)
        _ticket(64, 4),                         # exactly two full segments: no padding, no mask
        _ticket(9, 5, pad_blocks=[(6, 9)]),     # short ticket with trailing padding: masked attention in the block
    ]
